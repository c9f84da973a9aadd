#pragma once
// The tdcone command line.
#include <boost/mpi/communicator.hpp>

namespace tdcone::cli {

/// Parses the command line (and --config) and runs the chosen command; returns the exit status.
int run_cli(const boost::mpi::communicator& comm, int argc, char** argv);

}  // namespace tdcone::cli
