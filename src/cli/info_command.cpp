// tdcone info: what a result file holds, for people (results/info.hpp).
#include "tdcone/cli/info_command.hpp"

#include <iostream>
#include <sstream>

#include "tdcone/mpi/guard.hpp"
#include "tdcone/results/info.hpp"
#include "tdcone/results/standard_output.hpp"

namespace tdcone::cli {

void add_info_options(OptionSet& o, InfoOptions& i) {
  o.command()->add_option("hdf5", i.hdf5, "A tdcone HDF5 result")->required()->check(CLI::ExistingFile);
}

int run_info(const boost::mpi::communicator& comm, const InfoOptions& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;
    std::ostringstream text;  // all or nothing: a damaged file prints only the error
    results::print_info(text, options.hdf5);
    try {
      std::cout << text.str();
      std::cout.flush();
      results::check_written(std::cout, "standard output");
    } catch (const results::ReaderGone&) {
      status = results::kExitReaderGone;
    }
  });
  return status;
}

}  // namespace tdcone::cli
