// tdcone info: what a result file holds, for people (pipeline/result_info.hpp).
#include "tdcone/cli/info_command.hpp"

#include <iostream>
#include <sstream>

#include "tdcone/core/guard.hpp"
#include "tdcone/pipeline/result_info.hpp"
#include "tdcone/pipeline/standard_output.hpp"

namespace tdcone::cli {

void add_info_options(OptionSet& o, InfoOptions& i) {
  o.command()->add_option("hdf5", i.hdf5, "A tdcone HDF5 result")->required()->check(CLI::ExistingFile);
}

int run_info(const boost::mpi::communicator& comm, const InfoOptions& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;
    std::ostringstream text;  // all or nothing: a damaged file prints only the error
    pipeline::print_info(text, options.hdf5);
    try {
      std::cout << text.str();
      std::cout.flush();
      pipeline::check_written(std::cout, "standard output");
    } catch (const pipeline::ReaderGone&) {
      status = pipeline::kExitReaderGone;
    }
  });
  return status;
}

}  // namespace tdcone::cli
