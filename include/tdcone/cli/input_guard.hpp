#pragma once
// --force replaces outputs, never inputs: the files a command reads and writes.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <utility>
#include <vector>

#include "tdcone/cli/balance_command.hpp"
#include "tdcone/cli/export_command.hpp"
#include "tdcone/cli/score_command.hpp"
#include "tdcone/cli/select_command.hpp"
#include "tdcone/cli/sweep_command.hpp"
#include "tdcone/io/output_guard.hpp"

namespace tdcone::cli {

/// The files a command reads, and those it writes, by option.
struct CommandFiles {
  std::vector<io::ReadFiles> inputs;
  std::vector<std::pair<std::string, std::string>> outputs;  // option, file
};

CommandFiles files_of(const ScoreOptions& score);
CommandFiles files_of(const BalanceOptions& balance);
CommandFiles files_of(const SweepOptions& sweep);
CommandFiles files_of(const SelectOptions& select);
CommandFiles files_of(const ExportOptions& export_options);

/// Stops every rank, before any work, when an output of the command is one
/// of the files it reads. Collective.
void refuse_writing_over_inputs(const boost::mpi::communicator& comm, const CommandFiles& files);

}  // namespace tdcone::cli
