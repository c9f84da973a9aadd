#pragma once
// The tdcone command line.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

namespace tdcone::cli {

/// The process's set-up before MPI starts (main calls it first): the heap's
/// thresholds (large freed blocks stay in the heap) and which signals it
/// ignores or catches. MPI's start-up takes a while, and a selection stopped
/// by a signal during it still ends with a checkpoint.
void prepare_process(int argc, char** argv);

/// Parses the command line (and --config) and runs the chosen command; returns the exit status.
/// Called once MPI has started (main).
int run_cli(const boost::mpi::communicator& comm, int argc, char** argv);

/// Every long option of every command, "--memory", "--no-lowercase": what
/// the option names of messages (option_names.hpp) must be among.
std::vector<std::string> long_option_names();

}  // namespace tdcone::cli
