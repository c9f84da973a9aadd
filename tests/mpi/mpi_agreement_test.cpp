// Ranks agreeing on what they run and read (mpi/agreement.hpp), on 1-4
// ranks: the same arguments pass; a rank whose arguments differ, or that
// failed to get them, stops every rank with the same error; rank 0's files
// are every rank's, and a rank that sees other files stops the job.
#include "tdcone/mpi/agreement.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "shared_dir.hpp"
#include "tdcone/mpi/guard.hpp"

namespace tdcone::mpi {
namespace {

namespace bmpi = boost::mpi;

struct Caught {
  bool thrown = false;
  int status = 0;
  std::string message;
};

template <class F>
Caught caught(F&& f) {
  Caught c;
  try {
    f();
  } catch (const CollectiveError& e) {
    c.thrown = true;
    c.status = e.exit_status;
    c.message = e.what();
  }
  return c;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(AgreeOnArguments, TheSameArgumentsPass) {
  const bmpi::communicator world;
  const Caught c = caught([&] { agree_on_arguments(world, {"tdcone", "score", "--input", "a.tsv"}, "the command line"); });
  EXPECT_FALSE(c.thrown) << c.message;
}

TEST(AgreeOnArguments, ARankWithOtherArgumentsStopsEveryRankWithStatus2) {
  const bmpi::communicator world;
  if (world.size() < 2) GTEST_SKIP() << "one rank agrees with itself";
  const int last = world.size() - 1;
  const std::vector<std::string> args{"tdcone", "score", "--input", world.rank() == last ? "b.tsv" : "a.tsv"};
  const Caught c = caught([&] { agree_on_arguments(world, args, "the command line"); });
  EXPECT_TRUE(c.thrown);
  EXPECT_EQ(c.status, 2);
  EXPECT_TRUE(contains(c.message, "the command line")) << c.message;
  EXPECT_TRUE(contains(c.message, "argument 4")) << c.message;  // the first that differs
  EXPECT_TRUE(contains(c.message, "'b.tsv'")) << c.message;
  EXPECT_TRUE(contains(c.message, "'a.tsv'")) << c.message;
  EXPECT_TRUE(contains(c.message, "rank " + std::to_string(last))) << c.message;
}

TEST(AgreeOnArguments, AShorterCommandLineDiffersWhereItEnds) {
  const bmpi::communicator world;
  if (world.size() < 2) GTEST_SKIP() << "one rank agrees with itself";
  std::vector<std::string> args{"tdcone", "score", "--force"};
  if (world.rank() == 1) args.pop_back();
  const Caught c = caught([&] { agree_on_arguments(world, args, "the command line"); });
  EXPECT_EQ(c.status, 2);
  EXPECT_TRUE(contains(c.message, "argument 3 is nothing here")) << c.message;
}

TEST(AgreeOnArguments, ARankThatFailedToReadThemStopsEveryRankWithItsStatus) {
  const bmpi::communicator world;
  const int last = world.size() - 1;
  const bool failing = world.rank() == last;
  const Caught c = caught([&] {
    agree_on_arguments(world, {"tdcone"}, "the options read from x.toml", failing ? 2 : 0,
                       failing ? "x.toml:3: unknown option 'bogus'" : "");
  });
  EXPECT_TRUE(c.thrown);
  EXPECT_EQ(c.status, 2);
  EXPECT_TRUE(contains(c.message, "x.toml:3")) << c.message;
}

class AgreedInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (bmpi::communicator().rank() == 0) {
      std::ofstream(dir_.path() / "a.tsv") << "x\ty\n";
      std::ofstream(dir_.path() / "b.tsv") << "x\ty\nz\tw\n";
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }

  test_support::SharedTempDir dir_{"agreement_test"};
};

TEST_F(AgreedInputs, EveryRankGetsRankZerosFiles) {
  const bmpi::communicator world;
  const auto files = agreed_inputs(world, {path("*.tsv")}, Option::input);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, path("a.tsv"));
  EXPECT_EQ(files[1].path, path("b.tsv"));
  EXPECT_EQ(files[0].size, 4u);
  EXPECT_EQ(files[1].size, 8u);
}

TEST_F(AgreedInputs, AMissingFileStopsEveryRankNamingIt) {
  const bmpi::communicator world;
  const Caught c = caught([&] { agreed_inputs(world, {path("missing.tsv")}, Option::input); });
  EXPECT_TRUE(c.thrown);
  EXPECT_NE(c.status, 0);
  EXPECT_TRUE(contains(c.message, "missing.tsv")) << c.message;
}

TEST_F(AgreedInputs, ARankThatSeesOtherFilesStopsTheJobWithStatus1) {
  const bmpi::communicator world;
  if (world.size() < 2) GTEST_SKIP() << "one rank sees what it sees";
  const int last = world.size() - 1;
  // The last rank's glob matches one file where rank 0's matches two.
  const std::string pattern = world.rank() == last ? path("a*.tsv") : path("*.tsv");
  const Caught c = caught([&] { agreed_inputs(world, {pattern}, Option::input); });
  EXPECT_TRUE(c.thrown);
  EXPECT_EQ(c.status, 1);
  EXPECT_TRUE(contains(c.message, "--input")) << c.message;
  EXPECT_TRUE(contains(c.message, "1 file(s) here but 2 there")) << c.message;
  EXPECT_TRUE(contains(c.message, "rank " + std::to_string(last))) << c.message;
}

}  // namespace
}  // namespace tdcone::mpi
