#pragma once
// The stages `score` and `sweep` share: read the corpus (and reference),
// align, reduce the partitioned matrix, score the corpus and its subsets.
#include <boost/mpi/communicator.hpp>

#include <optional>
#include <vector>

#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/run_report.hpp"
#include "tdcone/entropy/subset_scores.hpp"

namespace tdcone::cli {

/// Reads this rank's share of `files` with progress on rank 0 ("read WHAT");
/// an error on any rank stops all. Collective.
text::TokenizedShare read_files(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& files,
                                const text::ReadOptions& options, text::Vocabulary& vocabulary, const std::string& what);

struct CorpusJob {
  std::vector<io::InputFile> files;
  text::Vocabulary vocabulary;  // corpus and reference words share ids
  text::TokenizedShare share;
  LineCounts counts;
  std::optional<text::TokenizedShare> reference;
};

/// Checks the output target, resolves and reads the corpus and the reference
/// (bad lines reported and handled per --on-bad-line). Collective.
CorpusJob read_corpus_job(const boost::mpi::communicator& comm, const CorpusOptions& corpus,
                          const ReferenceOptions& reference, const OutputOptions& output);

struct JobScores {
  std::vector<double> pair_tdcone;           // per local pair
  std::vector<std::uint64_t> pair_rank;      // per local pair
  std::vector<entropy::SubsetScore> subsets;  // subset 0 = the corpus
  std::uint64_t input_types = 0;             // |V_x| of the corpus
};

/// Aligns, reduces and scores the corpus and the subsets of `groups`. Collective.
JobScores score_corpus_job(const boost::mpi::communicator& comm, const CorpusJob& job, const AlignOptions& align,
                           const ReferenceOptions& reference, const entropy::PairGroups& groups);

/// `/corpus` (SPEC §8) from subset 0.
void write_corpus_group(h5::OutputFile& file, const JobScores& scores, bool with_reference);

/// The summary printed on rank 0.
void print_summary(const boost::mpi::communicator& comm, const std::string& command, const std::string& output,
                   const LineCounts& counts, const JobScores& scores, bool with_reference, double seconds);

}  // namespace tdcone::cli
