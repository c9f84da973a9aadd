#pragma once
// The tdcone command line.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

namespace tdcone::cli {

/// Parses the command line (and --config) and runs the chosen command; returns the exit status.
int run_cli(const boost::mpi::communicator& comm, int argc, char** argv);

/// Every long option of every command, "--memory", "--no-lowercase": what
/// the option names of messages (option_names.hpp) must be among.
std::vector<std::string> long_option_names();

}  // namespace tdcone::cli
