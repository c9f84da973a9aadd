// The select job (jobs/select_job.hpp) on one rank: the corpora read on
// their sides, SEED lines flagged, the ranking of docs/spec.md §6's worked example
// summed up, and the checkpoint path owned from start to end.
#include "tdcone/jobs/select_job.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <cmath>
#include <filesystem>
#include <string>

#include "tdcone/mpi/guard.hpp"
#include "tdcone/select/checkpoint.hpp"
#include "temp_files.hpp"

namespace tdcone::jobs {
namespace {

namespace bmpi = boost::mpi;
namespace fs = std::filesystem;

class SelectJob : public ::testing::Test {
 protected:
  // docs/spec.md §6's worked example: REPR a b / a c; AVAIL a b / c c d / e, one
  // sentence a line.
  SelectConfig worked_example() {
    SelectConfig config;
    config.representative = {dir_.write("repr.txt", "a b\na c\n")};
    config.available = {dir_.write("avail.txt", "a b\nc c d\ne\n")};
    config.output.output = dir_.path("out.h5");
    return config;
  }
  SelectRun run(const SelectConfig& config) {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    return run_select_job(self, config, "");
  }
  // The message of the error the job raises.
  std::string error_of(const SelectConfig& config) {
    try {
      run(config);
    } catch (const std::exception& e) {
      return e.what();
    }
    ADD_FAILURE() << "the job ran";
    return "";
  }

  test_support::TempDir dir_{"tdcone_select_job_test"};
};

TEST_F(SelectJob, RanksTheWorkedExampleAndSumsItUp) {
  const SelectRun r = run(worked_example());
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.counts.lines, 3u);
  EXPECT_EQ(r.ranked, 3u);
  EXPECT_EQ(r.lexicon, 5u);      // a b c d e
  EXPECT_EQ(r.repr_tokens, 4u);
  EXPECT_NEAR(r.h_initial, std::log(5.0), 1e-12);  // nothing selected: uniform over |L|
  EXPECT_EQ(r.stop_rank, 2u);                      // "a b", "c c d"; "e" only adds a penalty
  EXPECT_NEAR(r.h_stop, 1.4373918, 5e-8);
  EXPECT_EQ(r.in_seed, 0u);
  EXPECT_FALSE(r.seed_given);
  EXPECT_TRUE(fs::exists(dir_.path("out.h5")));
  EXPECT_FALSE(fs::exists(dir_.path("out.h5.ckpt")));  // a finished selection leaves no checkpoint
}

// "auto": a one-column input is its whole line; a two-column one is read on
// its side (--side, or its own).
TEST_F(SelectJob, EachInputIsReadOnItsSide) {
  SelectConfig config = worked_example();
  config.representative = {dir_.write("repr.tsv", "a b\tz z z\na c\tz\n")};
  const SelectRun src = run(config);
  EXPECT_EQ(src.repr_tokens, 4u);  // a b, a c
  EXPECT_NEAR(src.h_initial, std::log(5.0), 1e-12);
  EXPECT_EQ(src.stop_rank, 2u);

  config.output.force = true;
  config.representative_side = LineSide::tgt;
  EXPECT_EQ(run(config).repr_tokens, 4u);  // z z z, z
  config.representative_side = LineSide::line;
  EXPECT_EQ(run(config).repr_tokens, 8u);  // the tab splits no words
}

TEST_F(SelectJob, AvailLinesThatAreSeedLinesAreFlaggedNotRanked) {
  SelectConfig config = worked_example();
  config.seed_corpus = {dir_.write("seed.txt", "c c d\nx y\n")};
  const SelectRun flagged = run(config);
  EXPECT_TRUE(flagged.seed_given);
  EXPECT_EQ(flagged.in_seed, 1u);
  EXPECT_EQ(flagged.ranked, 2u);
  EXPECT_EQ(flagged.counts.lines, 3u);

  config.output.force = true;
  config.skip_seed_lines = false;
  const SelectRun kept = run(config);
  EXPECT_EQ(kept.in_seed, 0u);
  EXPECT_EQ(kept.ranked, 3u);
}

TEST_F(SelectJob, ARepresentativeCorpusWithoutTokensFailsWithStatus2) {
  SelectConfig config = worked_example();
  config.representative = {dir_.write("repr.tsv", "a b\t \n")};
  config.representative_side = LineSide::tgt;  // a blank side: a usable line without a token
  try {
    run(config);
    FAIL() << "a selection without REPR tokens ran";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2) << e.what();
    EXPECT_NE(std::string(e.what()).find("has no tokens"), std::string::npos) << e.what();
  }
}

// A checkpoint at the path that the job did not write is another selection's
// (here: every part of its fingerprint differs but the corpora not given);
// --force replaces it, and the finished job removes it.
TEST_F(SelectJob, AForeignCheckpointIsRefusedUnlessForced) {
  SelectConfig config = worked_example();
  select::Fingerprint foreign{1, 2, 3, 0, 0};
  select::SelectionState state;
  state.counts.assign(5, 0);
  select::write_checkpoint(dir_.path("out.h5.ckpt"), foreign, state);
  const std::string message = error_of(config);
  EXPECT_NE(message.find("another selection"), std::string::npos) << message;
  EXPECT_NE(message.find("options"), std::string::npos) << message;
  EXPECT_NE(message.find("representative"), std::string::npos) << message;
  EXPECT_NE(message.find("available"), std::string::npos) << message;
  EXPECT_EQ(message.find("unadapted"), std::string::npos) << message;
  EXPECT_EQ(message.find("seed"), std::string::npos) << message;
  EXPECT_TRUE(fs::exists(dir_.path("out.h5.ckpt")));  // left as it is

  config.output.force = true;
  EXPECT_EQ(run(config).ranked, 3u);
  EXPECT_FALSE(fs::exists(dir_.path("out.h5.ckpt")));
}

TEST_F(SelectJob, PeriodicCheckpointsGoToTheCheckpointPathAndAreRemovedAtTheEnd) {
  SelectConfig config = worked_example();
  config.checkpoint = dir_.path("my.ckpt");
  config.checkpoint_every = 1e-9;  // minutes: at every iteration
  ::testing::internal::CaptureStderr();
  SelectRun r;
  try {
    r = run(config);
  } catch (...) {
    ::testing::internal::GetCapturedStderr();  // the capture ends also when it throws
    throw;
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(r.ranked, 3u);
  EXPECT_NE(err.find("ranked lines written to " + dir_.path("my.ckpt")), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir_.path("my.ckpt")));
  EXPECT_FALSE(fs::exists(dir_.path("out.h5.ckpt")));
}

}  // namespace
}  // namespace tdcone::jobs
