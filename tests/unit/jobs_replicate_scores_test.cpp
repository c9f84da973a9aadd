// Replicates of the score job (jobs/replicate_scores.hpp) on the spec's
// worked example: a sample of one pair is that pair alone, so replicate r's
// corpus TD-CONE is pair 0's own value (2/3 ln 2 / ln 3) when the hash picks
// pair 0, else 0 (pairs 1 and 2 alone have H = 0).
#include "tdcone/jobs/replicate_scores.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <xxhash.h>

#include <boost/mpi/communicator.hpp>

#include <cmath>

#include "tdcone/entropy/replicate_sample.hpp"
#include "tdcone/jobs/score_job.hpp"
#include "temp_files.hpp"

namespace tdcone::jobs {
namespace {

namespace bmpi = boost::mpi;

const double kPair0 = (2.0 / 3.0) * std::log(2.0) / std::log(3.0);

TEST(AutomaticSample, HalfTheSmallestSubsetCompared) {
  EXPECT_EQ(automatic_sample({10, 7, 3, 0}, {false, true, true, true}), 1u);  // an empty subset is no size
  EXPECT_EQ(automatic_sample({10, 9, 12}, {false, true, true}), 4u);
  EXPECT_EQ(automatic_sample({10}, {true}), 5u);
  EXPECT_EQ(automatic_sample({0, 0}, {true, true}), 1u);
}

// The pair of 0, 1, 2 with the smallest key of replicate r: the hash alone.
std::uint64_t picked(std::uint64_t seed, std::uint32_t r) {
  std::uint64_t best = 0, best_hash = ~std::uint64_t{0};
  for (std::uint64_t id = 0; id < 3; ++id) {
    const std::uint64_t hash = XXH3_64bits_withSeed(&id, 8, seed + r * 0x9E3779B97F4A7C15ull);
    if (hash < best_hash) best = id, best_hash = hash;
  }
  return best;
}

TEST(ScoreReplicates, ASampleOfOnePairScoresThatPairAlone) {
  test_support::TempDir dir("tdcone_replicate_scores_test");
  ScoreConfig config;
  config.corpus.inputs = {dir.write("corpus.tsv", "a b c\ta d\na b\ta b e\na b\ta\nno second column\n")};
  config.output.output = dir.path("out.h5");
  config.sample.sample = 1;
  config.sample.replicates = 8;
  config.sample.seed = 3;
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const ScoreRun run = run_score_job(self, config, "");
  ASSERT_EQ(run.replicates.of_replicate.size(), 8u);
  EXPECT_EQ(run.replicates.sampled, (std::vector<std::uint64_t>{1}));
  int picks_of_pair0 = 0;
  for (std::uint32_t r = 0; r < 8; ++r) {
    const entropy::SubsetScore& corpus = run.replicates.of_replicate[r][0];
    EXPECT_EQ(corpus.n_pairs, 1u);
    const bool pair0 = picked(3, r) == 0;
    picks_of_pair0 += pair0;
    EXPECT_NEAR(corpus.tdcone, pair0 ? kPair0 : 0.0, 1e-12) << "replicate " << r;
  }
  EXPECT_GT(picks_of_pair0, 0);  // both kinds of draw are checked
  EXPECT_LT(picks_of_pair0, 8);
  // The corpus row's interval is over those values.
  ASSERT_EQ(run.intervals.size(), 1u);
  EXPECT_NEAR(run.intervals[0].of_metric[0][0].mean, kPair0 * picks_of_pair0 / 8.0, 1e-12);
}

}  // namespace
}  // namespace tdcone::jobs
