// The stall watchdog (mpi/stall_watchdog.hpp) on 1-4 ranks, with heartbeats
// (MPI_THREAD_MULTIPLE, as tdcone starts MPI): a normal stop waits for every
// rank's goodbye, and a rank leaving on an error waits for none. (A real
// stall ends the job with MPI_Abort, and ranks waiting for one that works
// are no stall: tests/fault/stall_timeout.sh runs tdcone for both.)
#include "tdcone/mpi/stall_watchdog.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <optional>
#include <thread>

#include "tdcone/core/activity.hpp"
#include "world.hpp"

namespace tdcone::mpi {
namespace {

using Clock = std::chrono::steady_clock;

using tdcone::test_support::world_rank;
using tdcone::test_support::world_size;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Progress on this rank (a step every 10 ms) for `seconds`.
void work_for(double seconds) {
  const auto start = Clock::now();
  enter_phase("test work");
  while (seconds_since(start) < seconds) {
    note_progress();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Every test watches over a heartbeat channel of its own, as main makes one.
class StallWatchdogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    // Without it each rank would watch only itself (no heartbeats), and a rank
    // that waits for another would be a stall.
    ASSERT_EQ(provided, MPI_THREAD_MULTIPLE) << "mpi_test_main.cpp starts MPI as tdcone does";
    channel_.emplace(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    channel_.reset();
  }

  std::optional<StallChannel> channel_;
};

// stop() on rank 0 returns only once every other rank has said goodbye:
// here 2 s after it, when they stop.
TEST_F(StallWatchdogTest, ANormalStopOnRankZeroWaitsForEveryRanksGoodbye) {
  StallWatchdog watchdog(10);
  if (world_rank() != 0) work_for(2.0);
  const auto stopping = Clock::now();
  watchdog.stop();
  const double stop_took = seconds_since(stopping);
  if (world_rank() == 0 && world_size() > 1)
    EXPECT_GT(stop_took, 1.5);  // the others' goodbyes came 2 s later
  else
    EXPECT_LT(stop_took, 1.0);  // nobody to wait for: rank 0 still answers, or one rank watches nothing
}

// A rank that leaves on an error of its own (the watchdog destroyed without
// stop()) ends its thread at once, whether or not the others are still at
// work: the job is about to be aborted.
TEST_F(StallWatchdogTest, ARankLeavingOnAnErrorWaitsForNobody) {
  std::optional<StallWatchdog> watchdog(std::in_place, 10);
  if (world_rank() != 0) work_for(2.0);
  const auto leaving = Clock::now();
  watchdog.reset();
  EXPECT_LT(seconds_since(leaving), 1.0);  // rank 0 would wait 2 s for the others
}

}  // namespace
}  // namespace tdcone::mpi
