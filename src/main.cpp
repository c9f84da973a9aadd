// Starts MPI, runs one command and maps its errors to exit statuses.
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <cstdio>
#include <new>

#include "tdcone/cli/app.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/mpi/stall_watchdog.hpp"

int main(int argc, char** argv) {
  tdcone::cli::prepare_process(argc, argv);
  // Threads: the stall watchdog's heartbeats run beside the main thread's MPI calls.
  boost::mpi::environment environment(argc, argv, boost::mpi::threading::multiple);
  boost::mpi::communicator world;
  const tdcone::mpi::FailureChannel failures(world);
  const tdcone::mpi::StallChannel stalls(world);
  try {
    return tdcone::cli::run_cli(world, argc, argv);
  } catch (const tdcone::mpi::CollectiveError& e) {
    if (world.rank() == 0) std::fprintf(stderr, "tdcone: error: %s\n", e.what());
    return e.exit_status;
  } catch (const std::bad_alloc&) {  // outside a local step, e.g. in a collective call
    std::fprintf(stderr, "tdcone: rank %d: error: %s\n", world.rank(), tdcone::out_of_memory_message().c_str());
    if (world.size() > 1) world.abort(1);
    return 1;
  } catch (const std::exception& e) {
    // Only this rank failed: stop the others rather than leave them waiting.
    std::fprintf(stderr, "tdcone: rank %d: error: %s\n", world.rank(), e.what());
    if (world.size() > 1) world.abort(1);
    return 1;
  }
}
