#pragma once
// What the jobs on a corpus (score, sweep, balance) share: read the corpus
// (and reference), run the score engine on them.
#include <boost/mpi/communicator.hpp>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tdcone/core/option.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/label/labels.hpp"
#include "tdcone/engine/duplicates.hpp"
#include "tdcone/engine/memory_budget.hpp"
#include "tdcone/config/job_config.hpp"
#include "tdcone/results/line_accounting.hpp"
#include "tdcone/engine/score_engine.hpp"
#include "tdcone/results/writer.hpp"

namespace tdcone::jobs {

/// A corpus read for a job: its files, tokenized share, counts, reference and labels.
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
  results::LineCounts counts;
  std::optional<text::TokenizedShare> reference;
  std::optional<label::PairLabels> labels;  // with a config::LabelConfig
  std::optional<engine::Duplicates> duplicates;     // with --dedup
  double read_seconds = 0, dedup_seconds = 0;
  // Where the input and the output side are read (after --reverse), for
  // messages: "column 3" and Option::tgt_col, or "field 'tgt'" and Option::tgt_field.
  std::array<std::string, 2> side_where;
  std::array<Option, 2> side_option{Option::src_col, Option::tgt_col};
};

/// Checks the output target, resolves and reads the corpus and the reference
/// (bad lines reported and handled per --on-bad-line), and with `labels` the
/// corpus's labels (account_labels); with --dedup, its duplicates and source
/// groups (engine::Duplicates::find). Rank 0 warns when both sides are the
/// same column, field or file. Collective.
CorpusJob read_corpus_job(const boost::mpi::communicator& comm, const config::CorpusConfig& corpus,
                          const config::ReferenceConfig& reference, const config::OutputConfig& output,
                          const config::LabelConfig* labels = nullptr);

/// The engine's result, with the run's figures for the summary and the file.
struct JobScores : engine::EngineResult {
  std::uint64_t memory_budget = 0;           // bytes per rank
  std::string memory_rule;                   // how the default budget was found (empty with --memory)
  std::vector<std::uint64_t> peak_rss;       // bytes, per rank (every rank has all)
};

/// The engine's settings for a job: `engine`'s, the reference's lambda, and
/// --memory or else the machine's budget.
engine::EngineConfig engine_config(const config::EngineSettings& engine, const config::ReferenceConfig& reference,
                                   const engine::MachineBudget& machine);

/// Runs the score engine on the job (TD-CONE of the corpus, its pairs and the
/// subsets of `groups`; TD-CONE_REL with a reference; with `rank_groups`,
/// every pair's rank within its rank group too). The shares' word types are
/// released as the engine aligns them: a job is scored once. Stops every rank with exit
/// status 2 when --memory is too small. Rank 0 warns of a side with too few
/// word types to be text (a label or score column). Collective.
JobScores score_corpus_job(const boost::mpi::communicator& comm, CorpusJob& job, const config::EngineSettings& engine,
                           const config::ReferenceConfig& reference, const entropy::PairGroups& groups,
                           std::span<const std::uint32_t> rank_groups = {}, std::uint32_t rank_group_count = 0);

/// `/corpus` (docs/spec.md §8) from subset 0, and the run's phase times and memory on `/`.
void write_corpus_group(hdf5::OutputFile& file, const JobScores& scores, bool with_reference);

/// What a scored job's result starts with: the run's attributes and
/// `/inputs` (`command`, its configuration `config_toml`), `/corpus`, `/pairs`
/// (read as `corpus` says) and, with --dedup, the duplicate columns. Collective.
void write_scored_corpus(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::string& command,
                         const std::string& config_toml, const CorpusJob& job, const config::CorpusConfig& corpus,
                         const JobScores& scores, bool with_reference);

/// Adds the time of writing the output to the phases (after the file is written).
void add_write_phase(JobScores& scores, double seconds);

}  // namespace tdcone::jobs
