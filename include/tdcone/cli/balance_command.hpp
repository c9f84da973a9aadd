#pragma once
// tdcone balance: its options and its run.
#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/cli/common_options.hpp"
#include "tdcone/jobs/balance_job.hpp"

namespace tdcone::cli {

struct BalanceOptions {
  jobs::BalanceConfig config;
  CorpusModes corpus;
  EngineModes engine;
  OutputModes output;
  std::string mode = "joint";      // joint | marginal | skewed (label::BalanceMode)
  std::string rank_by = "tdcone";  // tdcone | cynical | random
};

void add_balance_options(OptionSet& options, BalanceOptions& balance);

/// Runs the job and prints its summary; returns the exit status. `config_toml`: the effective configuration.
int run_balance(const boost::mpi::communicator& comm, const BalanceOptions& options, const std::string& config_toml);

}  // namespace tdcone::cli
