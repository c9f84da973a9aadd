#pragma once
// tdcone select: its options and its run.
#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/cli/common_options.hpp"
#include "tdcone/jobs/select_job.hpp"

namespace tdcone::cli {

struct SelectOptions {
  jobs::SelectConfig config;
  CorpusModes corpus;  // format and tokenization (its --input is not used)
  OutputModes output;
  std::string side = "src";  // AVAIL's (and, by default, the others' when they hold pairs)
  // REPR, UNAD, SEED: src, tgt, both, line (the whole line), or auto: line
  // when the input's first non-empty line has one column, else --side.
  std::string representative_side = "auto", unadapted_side = "auto", seed_side = "auto";
};

void add_select_options(OptionSet& options, SelectOptions& select);

/// Runs the job and prints its summary; returns the exit status (75 when a
/// signal stopped it). `config_toml`: the effective configuration.
int run_select(const boost::mpi::communicator& comm, const SelectOptions& options, const std::string& config_toml);

}  // namespace tdcone::cli
