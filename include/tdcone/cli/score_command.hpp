#pragma once
// tdcone score: its options and its run.
#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/cli/common_options.hpp"
#include "tdcone/jobs/score_job.hpp"

namespace tdcone::cli {

struct ScoreOptions {
  jobs::ScoreConfig config;
  CorpusModes corpus;
  EngineModes engine;
  OutputModes output;
  SampleModes sample;
  std::string shard_by = "hash";
  std::string dedup = "none";
};

void add_score_options(OptionSet& options, ScoreOptions& score);

/// Runs the job and prints its summary; returns the exit status. `config_toml`: the effective configuration.
int run_score(const boost::mpi::communicator& comm, const ScoreOptions& options, const std::string& config_toml);

}  // namespace tdcone::cli
