#pragma once
// tdcone balance: a label-balanced (or skewed) subset of a corpus, the lines
// of each combination taken best first (the multi-style balancing paper).
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tdcone/label/balance_plan.hpp"
#include "tdcone/jobs/corpus_job.hpp"
#include "tdcone/exporting/text.hpp"
#include "tdcone/config/job_config.hpp"
#include "tdcone/results/label_subsets.hpp"
#include "tdcone/exporting/where_filter.hpp"

namespace tdcone::jobs {

/// Which lines of a combination go first.
enum class RankBy {
  tdcone,   // lowest pair TD-CONE: scored in this run, or read from a score result (--ranking)
  cynical,  // best rank of a select result (--ranking)
  random,   // a seeded random order
};

struct BalanceConfig {
  config::CorpusConfig corpus;
  config::EngineSettings engine;
  config::LabelConfig labels;
  label::BalanceMode mode = label::BalanceMode::joint;
  double min_share = 0.05;
  std::uint64_t size = 0;  // skewed: total size; 0 = the joint mode's
  RankBy rank_by = RankBy::tdcone;
  std::string ranking;     // a score result (tdcone) or select result (cynical) of this corpus
  std::uint64_t seed = 1;  // --rank-by random
  bool by_label = false;   // also /labels, in the same pass
  exporting::WhereFilter where;  // only the lines that pass it are balanced
  config::OutputConfig output;
  exporting::RunConfigReader read_run_config;  // reads the recorded configuration of --ranking and --where-result
};

/// What a balance run found, for its summary.
struct BalanceRun {
  results::LineCounts counts;
  std::optional<JobScores> scores;  // when TD-CONE was scored in this run (or --by-label)
  results::LabelSubsets subsets;             // --by-label
  std::uint64_t left_out = 0;       // lines --where took out of their combination
  label::PairLabels labels;
  std::vector<std::string> names;   // of every combination
  label::BalancePlan plan;
};

/// Reads the corpus and its labels, ranks each combination's lines, keeps the
/// plan's quota of each and writes the result (recording `config_toml`).
/// Throws UsageError (on every rank) for options that do not go together.
/// Collective.
BalanceRun run_balance_job(const boost::mpi::communicator& comm, const BalanceConfig& config,
                           const std::string& config_toml);

}  // namespace tdcone::jobs
