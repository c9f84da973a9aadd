// Turning an error on one rank into a clean stop of every rank
// (mpi/guard.hpp), on 1-4 ranks: the status of each kind of error, the
// failure every rank learns (the lowest failing rank's, a cause before a
// consequence, no rank named when all failed), and no failure when none did.
#include "tdcone/mpi/guard.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <new>
#include <stdexcept>
#include <string>

#include "tdcone/core/error.hpp"

namespace tdcone::mpi {
namespace {

namespace bmpi = boost::mpi;

TEST(MpiGuard, ALocalStepGivesEachErrorItsStatus) {
  std::string message;
  EXPECT_EQ(run_local_step([] {}, message), 0);
  EXPECT_EQ(run_local_step([] { throw UsageError("bad option"); }, message), 2);
  EXPECT_EQ(message, "bad option");
  EXPECT_EQ(run_local_step([] { throw std::runtime_error("broken"); }, message), 1);
  EXPECT_EQ(message, "broken");
  bool consequence = false;
  EXPECT_EQ(run_local_step([] { throw CollectiveError("agreed", 7, true); }, message, &consequence), 7);
  EXPECT_EQ(message, "agreed");
  EXPECT_TRUE(consequence);
  message.clear();
  EXPECT_EQ(run_local_step([] { throw std::bad_alloc(); }, message), 1);
  EXPECT_FALSE(message.empty());
}

// The error every rank catches from collective_step(comm, step).
struct Caught {
  bool thrown = false;
  CollectiveError error{"", 0};
};
Caught step_on_every_rank(const bmpi::communicator& comm, const std::function<void()>& step) {
  Caught caught;
  try {
    collective_step(comm, step);
  } catch (const CollectiveError& e) {
    caught.thrown = true;
    caught.error = e;
  }
  return caught;
}

TEST(MpiGuard, AStepThatFailsOnOneRankFailsOnEveryRank) {
  bmpi::communicator world;
  const int last = world.size() - 1;
  const Caught c = step_on_every_rank(world, [&] {
    if (world.rank() == last) throw UsageError("no such file");
  });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.error.exit_status, 2);
  // One rank of one: every rank failed, none is named.
  EXPECT_EQ(std::string(c.error.what()), world.size() == 1 ? "no such file" : cat("rank ", last, ": no such file"));
  EXPECT_EQ(c.error.consequence, world.rank() != last);
}

TEST(MpiGuard, TheLowestFailingRankIsTheOneReported) {
  bmpi::communicator world;
  const Caught c = step_on_every_rank(world, [&] {
    if (world.rank() > 0 || world.size() == 1) throw std::runtime_error(cat("failed on ", world.rank()));
  });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.error.exit_status, 1);
  const int first = world.size() == 1 ? 0 : 1;
  EXPECT_EQ(std::string(c.error.what()), world.size() == 1 ? "failed on 0" : cat("rank ", first, ": failed on ", first));
}

TEST(MpiGuard, WhenEveryRankFailsNoRankIsNamed) {
  bmpi::communicator world;
  const Caught c = step_on_every_rank(world, [&] { throw std::runtime_error(cat("failed on ", world.rank())); });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(std::string(c.error.what()), "failed on 0");
  EXPECT_EQ(c.error.consequence, world.rank() != 0);  // rank 0's error is the one reported
}

// Rank 0 fails only because another did: the other's error is the one reported.
TEST(MpiGuard, ACauseIsReportedBeforeAConsequence) {
  bmpi::communicator world;
  if (world.size() == 1) GTEST_SKIP() << "needs two ranks";
  const int last = world.size() - 1;
  const Caught c = step_on_every_rank(world, [&] {
    if (world.rank() == 0) throw CollectiveError("a consequence", 3, true);
    if (world.rank() == last) throw std::runtime_error("the cause");
  });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(std::string(c.error.what()), cat("rank ", last, ": the cause"));
  EXPECT_EQ(c.error.exit_status, 1);
}

TEST(MpiGuard, NoFailureNoError) {
  bmpi::communicator world;
  EXPECT_FALSE(step_on_every_rank(world, [] {}).thrown);
  EXPECT_FALSE(first_failure(MPI_Comm(world), 0, "").has_value());
}

TEST(MpiGuard, FailEverywhereThrowsTheSameErrorOnEveryRank) {
  try {
    fail_everywhere("nothing to do", 2);
    FAIL() << "fail_everywhere returned";
  } catch (const CollectiveError& e) {
    EXPECT_EQ(std::string(e.what()), "nothing to do");
    EXPECT_EQ(e.exit_status, 2);
    EXPECT_FALSE(e.consequence);
  }
}

}  // namespace
}  // namespace tdcone::mpi
