#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <cstdio>

#include "tdcone/cli/commands.hpp"
#include "tdcone/mpi/guard.hpp"

int main(int argc, char** argv) {
  boost::mpi::environment environment(argc, argv);
  boost::mpi::communicator world;
  try {
    return tdcone::cli::run_cli(world, argc, argv);
  } catch (const tdcone::mpi::CollectiveError& e) {
    if (world.rank() == 0) std::fprintf(stderr, "tdcone: error: %s\n", e.what());
    return e.exit_status;
  } catch (const std::exception& e) {
    // Only this rank failed: stop the others rather than leave them waiting.
    std::fprintf(stderr, "tdcone: rank %d: error: %s\n", world.rank(), e.what());
    if (world.size() > 1) world.abort(1);
    return 1;
  }
}
