#pragma once
// tdcone sweep: TD-CONE (and TD-CONE_REL) of every score-threshold subset, in one pass (docs/spec.md §5).
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tdcone/jobs/corpus_job.hpp"
#include "tdcone/config/job_config.hpp"
#include "tdcone/results/replicate_tables.hpp"

namespace tdcone::jobs {

/// What a sweep thresholds: the score column, or a per-pair diversity column.
enum class SweepBy { score, bleu, unigram_precision, len_ratio };

/// The column's name ("score", "bleu", ...), as /sweep records it.
const char* sweep_by_name(SweepBy by);

struct SweepConfig {
  config::CorpusConfig corpus;
  config::EngineSettings engine;
  config::ReferenceConfig reference;
  SweepBy by = SweepBy::score;
  bool below = false;              // S_t: pairs with value <= t instead of >= t
  std::vector<double> thresholds;  // subset S_t: pairs with score >= t (see `by`, `below`)
  config::SampleConfig sample;     // pairs scored of each S_t (replicate 0; none: all), and more replicates
  config::OutputConfig output;
};

/// What a sweep found, for its summary.
struct SweepRun {
  results::LineCounts counts;
  JobScores scores;  // subset 0: the corpus; 1 + t: threshold t
  bool with_reference = false;
  std::vector<std::uint64_t> subset_size;  // |S_t|
  std::vector<std::uint64_t> sampled;      // pairs scored of S_t
  std::optional<engine::DuplicateCounts> duplicates;  // with --dedup
  std::uint64_t sample = 0;  // N, after --sample auto; 0: none
  // With --replicates above 1: replicate 0 is the sample above, scored with
  // the corpus; and what they say of the thresholds.
  entropy::ReplicateScores replicates;
  std::optional<results::TableIntervals> intervals;
  std::vector<results::SizeCurvePoint> curve;  // with --at-sizes: the corpus, then the thresholds
};

/// Reads and scores the corpus and its threshold subsets, writes the result
/// (recording `config_toml`). Stops every rank with exit status 2 when the
/// corpus has no score. Collective.
SweepRun run_sweep_job(const boost::mpi::communicator& comm, const SweepConfig& config, const std::string& config_toml);

}  // namespace tdcone::jobs
