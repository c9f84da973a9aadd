#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <csignal>
#include <cstdio>
#include <new>
#include <string_view>

#include "tdcone/cli/app.hpp"
#include "tdcone/core/memory_pages.hpp"
#include "tdcone/engine/memory_budget.hpp"
#include "tdcone/jobs/select_job.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/mpi/stall_watchdog.hpp"

int main(int argc, char** argv) {
  tdcone::restart_with_huge_pages(argv);
  tdcone::keep_freed_heap_pages();
  // Before MPI's start-up, which takes a while: a signal that early still ends
  // a selection with a checkpoint (at its first iteration) and exit status 75.
  if (argc > 1 && std::string_view(argv[1]) == "select") tdcone::jobs::catch_stop_signals();
  // A file over the size limit (ulimit -f) is a write error to report, not a crash.
  std::signal(SIGXFSZ, SIG_IGN);
  // A closed pipe is EPIPE where standard output is written: the command ends
  // quietly with status 141, as if SIGPIPE had killed it (results/standard_output.hpp).
  std::signal(SIGPIPE, SIG_IGN);
  // Threads: the stall watchdog's heartbeats run beside the main thread's MPI calls.
  boost::mpi::environment environment(argc, argv, boost::mpi::threading::multiple);
  boost::mpi::communicator world;
  tdcone::engine::note_resident_at_start();  // the memory budget counts it
  tdcone::small_pages_while_cheap(tdcone::engine::ranks_on_node(world));
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
