#pragma once
// tdcone info: its options and its run.
#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/cli/options.hpp"

namespace tdcone::cli {

struct InfoOptions {
  std::string hdf5;
};

void add_info_options(OptionSet& options, InfoOptions& info);

/// Prints what the result holds (rank 0); returns the exit status.
int run_info(const boost::mpi::communicator& comm, const InfoOptions& options);

}  // namespace tdcone::cli
