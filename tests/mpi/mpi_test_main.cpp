// Multi-rank tests: every rank runs every test; only rank 0 prints, and the
// run fails if any rank failed. MPI starts as in tdcone (src/main.cpp), with
// MPI_THREAD_MULTIPLE: the stall watchdog's heartbeats run beside the tests' calls.
#include <gtest/gtest.h>
#include <mpi.h>

#include <optional>

#include "tdcone/cli/option_names.hpp"
#include "tdcone/mpi/guard.hpp"

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  tdcone::cli::install_option_names();  // as tdcone does: messages name options with them
  ::testing::InitGoogleTest(&argc, argv);
  std::optional<tdcone::mpi::FailureChannel> failures(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  failures.reset();
  MPI_Finalize();
  return any_failed;
}
