#pragma once
// What `score` and `sweep` share: read the corpus (and reference), run the
// score engine on them, report and store its figures.
#include <boost/mpi/communicator.hpp>

#include <array>
#include <optional>
#include <vector>

#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/run_report.hpp"
#include "tdcone/label/labels.hpp"
#include "tdcone/pipeline/score_engine.hpp"

namespace tdcone::cli {

struct CorpusJob {
  std::vector<io::InputFile> files;      // --input, or --src-file
  std::vector<io::InputFile> tgt_files;  // --tgt-file (a parallel corpus), else empty
  /// The files the run records (attribute `inputs`): --input, or the src files then the tgt files.
  std::vector<io::InputFile> recorded_files() const {
    std::vector<io::InputFile> all = files;
    all.insert(all.end(), tgt_files.begin(), tgt_files.end());
    return all;
  }
  text::Vocabulary vocabulary;  // corpus and reference words share ids
  text::TokenizedShare share;
  LineCounts counts;
  std::optional<text::TokenizedShare> reference;
  std::optional<label::PairLabels> labels;  // with LabelOptions
  double read_seconds = 0;
  // Where the input and the output side are read (after --reverse), for
  // messages: "column 3" and "--tgt-col", or "field 'tgt'" and "--tgt-field".
  std::array<std::string, 2> side_where, side_option;
};

/// Checks the output target, resolves and reads the corpus and the reference
/// (bad lines reported and handled per --on-bad-line), and with `labels` the
/// corpus's labels (cli/labels.hpp account_labels). Rank 0 warns when both
/// sides are the same column, field or file. Collective.
CorpusJob read_corpus_job(const boost::mpi::communicator& comm, const CorpusOptions& corpus,
                          const ReferenceOptions& reference, const OutputOptions& output,
                          const LabelOptions* labels = nullptr);

/// The engine's result, with the run's figures for the summary and the file.
struct JobScores : pipeline::EngineResult {
  std::uint64_t memory_budget = 0;           // bytes per rank
  std::string memory_rule;                   // how the default budget was found ("" for --memory)
  std::vector<std::uint64_t> peak_rss;       // bytes, per rank (every rank has all)
};

/// Runs the score engine on the job (TD-CONE of the corpus, its pairs and the
/// subsets of `groups`; TD-CONE_REL with a reference; with `rank_groups`,
/// every pair's rank within its rank group too). Stops every rank with exit
/// status 2 when --memory is too small. Rank 0 warns of a side with too few
/// word types to be text (a label or score column). Collective.
JobScores score_corpus_job(const boost::mpi::communicator& comm, const CorpusJob& job, const EngineOptions& engine,
                           const ReferenceOptions& reference, const entropy::PairGroups& groups,
                           std::span<const std::uint32_t> rank_groups = {}, std::uint32_t rank_group_count = 0);

/// `/corpus` (SPEC §8) from subset 0, and the run's phase times and memory on `/`.
void write_corpus_group(h5::OutputFile& file, const JobScores& scores, bool with_reference);

/// Adds the time of writing the output to the phases (after the file is written).
void add_write_phase(JobScores& scores, double seconds);

/// The summary printed on rank 0.
void print_summary(const boost::mpi::communicator& comm, const std::string& command, const std::string& output,
                   const LineCounts& counts, const JobScores& scores, bool with_reference, double seconds);

}  // namespace tdcone::cli
