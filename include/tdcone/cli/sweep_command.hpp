#pragma once
// tdcone sweep: its options and its run.
#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/cli/common_options.hpp"
#include "tdcone/jobs/sweep_job.hpp"

namespace tdcone::cli {

struct SweepOptions {
  jobs::SweepConfig config;
  CorpusModes corpus;
  EngineModes engine;
  OutputModes output;
  SampleModes sample;
  std::string dedup = "none";
  std::string sweep_by = "score";
};

void add_sweep_options(OptionSet& options, SweepOptions& sweep);

/// Runs the job and prints its summary; returns the exit status. `config_toml`: the effective configuration.
int run_sweep(const boost::mpi::communicator& comm, const SweepOptions& options, const std::string& config_toml);

}  // namespace tdcone::cli
