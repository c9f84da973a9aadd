// The sweep job (jobs/sweep_job.hpp) on one rank: SPEC §3's worked example
// with a score per pair (0.9, 0.5, 0.1) and a bad line; the TD-CONE of each
// threshold subset S_t computed by hand, in the run and in /sweep.
#include "tdcone/jobs/sweep_job.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "tdcone/hdf5/reader.hpp"
#include "tdcone/mpi/guard.hpp"
#include "temp_files.hpp"

namespace tdcone::jobs {
namespace {

namespace bmpi = boost::mpi;

const double kLn2 = std::log(2.0), kLn3 = std::log(3.0), kLn5 = std::log(5.0), kLn6 = std::log(6.0);
// The whole corpus (as jobs_score_job_test.cpp): H = (ln 3 + ln 6 / 2 + 5/2 ln 2) / 8, |V_y| = 4.
const double kCorpus = (kLn3 + 0.5 * kLn6 + 2.5 * kLn2) / 8 / kLn5;
// Pair 0 alone (score 0.9): 2/3 ln 2 / ln 3.
const double kPair0 = (2.0 / 3.0) * kLn2 / kLn3;
// Pairs 0 and 1 (score >= 0.5): a→a 2; b→b 1, b→d 1/2, b→NULL 1/2; c→d 1/2,
// c→NULL 1/2; NULL→e 1. T = 6, R(b) = 2, R(c) = 1:
// H = (ln 2 + 2 · 1/2 · ln 4 + 2 · 1/2 · ln 2) / 6 = 4 ln 2 / 6; |V_y| = 4 (a b d e).
const double kPairs01 = (4 * kLn2 / 6) / kLn5;

class SweepJob : public ::testing::Test {
 protected:
  SweepConfig scored_example() {
    SweepConfig config;
    config.corpus.inputs = {dir_.write("corpus.tsv", "a b c\ta d\t0.9\na b\ta b e\t0.5\na b\ta\t0.1\nno second column\n")};
    config.corpus.score_col = 3;
    config.thresholds = {0.0, 0.5, 0.9};
    config.output.output = dir_.path("sweep.h5");
    return config;
  }
  SweepRun run(const SweepConfig& config) {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    return run_sweep_job(self, config, "");
  }

  test_support::TempDir dir_{"tdcone_sweep_job_test"};
};

TEST_F(SweepJob, ScoresEachThresholdSubsetByHand) {
  const SweepRun r = run(scored_example());
  EXPECT_EQ(r.counts.lines, 4u);
  EXPECT_EQ(r.counts.flagged, 1u);
  EXPECT_EQ(r.subset_size, (std::vector<std::uint64_t>{3, 2, 1}));
  EXPECT_EQ(r.sampled, (std::vector<std::uint64_t>{3, 2, 1}));  // no --sample: all of S_t
  ASSERT_EQ(r.scores.subsets.size(), 4u);  // the corpus, then one per threshold
  EXPECT_NEAR(r.scores.subsets[0].tdcone, kCorpus, 1e-12);
  EXPECT_NEAR(r.scores.subsets[1].tdcone, kCorpus, 1e-12);  // t = 0: every scored pair
  EXPECT_NEAR(r.scores.subsets[2].tdcone, kPairs01, 1e-12);
  EXPECT_NEAR(r.scores.subsets[3].tdcone, kPair0, 1e-12);
}

TEST_F(SweepJob, WritesARowPerThreshold) {
  run(scored_example());
  const hdf5::Reader result(dir_.path("sweep.h5"));
  EXPECT_EQ(result.read_double("/sweep/threshold"), (std::vector<double>{0.0, 0.5, 0.9}));
  EXPECT_EQ(result.read_uint("/sweep/n_pairs"), (std::vector<std::uint64_t>{3, 2, 1}));
  EXPECT_EQ(result.read_uint("/sweep/n_sampled"), (std::vector<std::uint64_t>{3, 2, 1}));
  const std::vector<double> tdcone = result.read_double("/sweep/tdcone");
  ASSERT_EQ(tdcone.size(), 3u);
  EXPECT_NEAR(tdcone[1], kPairs01, 1e-12);
  EXPECT_NEAR(tdcone[2], kPair0, 1e-12);
  EXPECT_EQ(result.attribute_string("/sweep", "sweep_by"), "score");
  EXPECT_EQ(result.attribute_string("/sweep", "direction"), ">=");
  EXPECT_NEAR(result.attribute_double("/corpus", "tdcone"), kCorpus, 1e-12);
  EXPECT_EQ(result.read_double("/pairs/score")[1], 0.5);
}

TEST_F(SweepJob, BelowTakesThePairsAtOrUnderTheThreshold) {
  SweepConfig config = scored_example();
  config.below = true;
  config.thresholds = {0.1, 0.5};
  const SweepRun r = run(config);
  EXPECT_EQ(r.subset_size, (std::vector<std::uint64_t>{1, 2}));
  // Pair 2 alone: a→a 1, b→NULL 1: every row one cell, H = 0.
  EXPECT_EQ(r.scores.subsets[1].tdcone, 0.0);
  // Pairs 1 and 2: a→a 2; b→b 1, b→NULL 1; NULL→e 1. T = 5, R(b) = 2:
  // H = 2 ln 2 / 5; |V_y| = 3 (a b e).
  EXPECT_NEAR(r.scores.subsets[2].tdcone, (2 * kLn2 / 5) / std::log(4.0), 1e-12);
  const hdf5::Reader result(dir_.path("sweep.h5"));
  EXPECT_EQ(result.attribute_string("/sweep", "direction"), "<=");
}

TEST_F(SweepJob, ACorpusWithoutScoresStopsWithStatus2) {
  SweepConfig config = scored_example();
  config.corpus.score_col = 0;
  try {
    run(config);
    FAIL() << "a sweep without scores ran";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2) << e.what();
  }
}

}  // namespace
}  // namespace tdcone::jobs
