#pragma once
// tdcone score: corpus and pair TD-CONE, optional TD-CONE_REL, shards and
// label subsets (docs/spec.md §3-5, §8), read, scored and written.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/jobs/corpus_job.hpp"
#include "tdcone/config/job_config.hpp"
#include "tdcone/results/label_subsets.hpp"
#include "tdcone/results/replicate_tables.hpp"

namespace tdcone::jobs {

struct ScoreConfig {
  config::CorpusConfig corpus;
  config::EngineSettings engine;
  config::ReferenceConfig reference;
  config::LabelConfig labels;
  bool by_label = false;  // /labels: scores per label combination and value
  std::size_t shards = 0;  // /shards: K shards scored besides the corpus; 0 = none
  entropy::ShardBy shard_by = entropy::ShardBy::hash;
  std::uint64_t seed = 1;  // of --shard-by hash
  std::vector<std::uint64_t> length_buckets;  // /lengths: increasing bounds on input tokens; empty = none
  config::SampleConfig sample;  // replicates of every subset, the corpus too (with --sample)
  config::OutputConfig output;
};

/// What a score run found, for its summary.
struct ScoreRun {
  results::LineCounts counts;
  JobScores scores;  // subset 0: the corpus; 1..shards: the shards; then the /labels rows
  bool with_reference = false;
  std::size_t shards = 0;
  std::vector<std::string> shard_files;  // --shard-by file: each shard's files, as given; else empty
  bool by_label = false;
  results::LabelSubsets labels;
  std::size_t first_label = 0;  // the subset of /labels row 0
  std::size_t first_length = 0;  // the subset of /lengths row 0 (with length_buckets)
  std::optional<engine::DuplicateCounts> duplicates;  // with --dedup
  // With --sample: every subset's replicates, and what they say of each table
  // (corpus, then /shards, /labels, /lengths, those the run has).
  entropy::ReplicateScores replicates;
  std::vector<results::TableIntervals> intervals;
  std::vector<results::SizeCurvePoint> curve;  // with --at-sizes
};

/// Reads and scores the corpus, writes the result `config.output` (recording
/// `config_toml`, the effective configuration). Stops every rank with exit
/// status 2 when --by-label and the label options disagree, when there are
/// more shards than usable lines, or when the length buckets are not
/// increasing. Collective.
ScoreRun run_score_job(const boost::mpi::communicator& comm, const ScoreConfig& config, const std::string& config_toml);

}  // namespace tdcone::jobs
