// The score job (jobs/score_job.hpp) on one rank: SPEC §3's worked example
// (a b c → a d, a b → a b e, a b → a) and a bad line, read, scored and
// written; the result read back: /corpus, /pairs and the root counts. The
// numbers are the spec's, derived again below.
#include "tdcone/jobs/score_job.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "tdcone/hdf5/reader.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/results.hpp"
#include "temp_files.hpp"

namespace tdcone::jobs {
namespace {

namespace bmpi = boost::mpi;

const double kLn2 = std::log(2.0), kLn3 = std::log(3.0), kLn5 = std::log(5.0), kLn6 = std::log(6.0);

// M (uniform): a→a 3; b→b 1, b→d 1/2, b→NULL 3/2; c→d 1/2, c→NULL 1/2;
// NULL→e 1. T = 8, R(a) = 3, R(b) = 3, R(c) = 1, R(NULL) = 1:
// H = (1·ln 3 + 1/2·ln 6 + 3/2·ln 2 + 2·1/2·ln 2) / 8; |V_y| = 4 (a b d e).
const double kCorpusH = (kLn3 + 0.5 * kLn6 + 2.5 * kLn2) / 8;
// Pair 0 alone: a→a 1, b→d/NULL 1/2 each, c→d/NULL 1/2 each: T = 3,
// H = 4 · (1/2)/3 · ln 2 = 2/3 ln 2; |V_y| = 2. Pairs 1 and 2: every row has
// one cell (a→a, b→b, NULL→e; a→a, b→NULL): H = 0.
const double kPair0 = (2.0 / 3.0) * kLn2 / kLn3;

class ScoreJob : public ::testing::Test {
 protected:
  ScoreConfig worked_example() {
    ScoreConfig config;
    config.corpus.inputs = {dir_.write("corpus.tsv", "a b c\ta d\na b\ta b e\na b\ta\nno second column\n")};
    config.output.output = dir_.path("out.h5");
    return config;
  }
  ScoreRun run(const ScoreConfig& config) {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    return run_score_job(self, config, "");
  }

  test_support::TempDir dir_{"tdcone_score_job_test"};
};

TEST_F(ScoreJob, ScoresTheWorkedExampleAsTheSpecDoes) {
  EXPECT_NEAR(kCorpusH, 0.4659200, 5e-8);  // the spec's figures
  EXPECT_NEAR(kCorpusH / kLn5, 0.2894924, 5e-8);
  EXPECT_NEAR(kPair0, 0.4206198, 5e-8);

  const ScoreRun r = run(worked_example());
  EXPECT_EQ(r.counts.lines, 4u);
  EXPECT_EQ(r.counts.scored, 3u);
  EXPECT_EQ(r.counts.flagged, 1u);
  ASSERT_FALSE(r.scores.subsets.empty());
  EXPECT_NEAR(r.scores.subsets[0].cond_entropy, kCorpusH, 1e-12);
  EXPECT_NEAR(r.scores.subsets[0].tdcone, kCorpusH / kLn5, 1e-12);
  EXPECT_EQ(r.scores.subsets[0].output_types, 4u);
  EXPECT_FALSE(r.with_reference);
}

TEST_F(ScoreJob, WritesCorpusAndPairsToTheResult) {
  run(worked_example());
  const hdf5::Reader result(dir_.path("out.h5"));
  using namespace schema;
  EXPECT_EQ(result.attribute_string(root::command.object, root::command.name), "score");
  EXPECT_EQ(result.attribute_uint(root::n_lines.object, root::n_lines.name), 4u);
  EXPECT_EQ(result.attribute_uint(root::n_scored.object, root::n_scored.name), 3u);
  EXPECT_EQ(result.attribute_uint(root::n_flagged.object, root::n_flagged.name), 1u);

  EXPECT_NEAR(result.attribute_double(corpus::tdcone.object, corpus::tdcone.name), kCorpusH / kLn5, 1e-12);
  EXPECT_NEAR(result.attribute_double(corpus::cond_entropy.object, corpus::cond_entropy.name), kCorpusH, 1e-12);
  EXPECT_EQ(result.attribute_uint(corpus::n_pairs.object, corpus::n_pairs.name), 3u);
  EXPECT_EQ(result.attribute_uint(corpus::vx.object, corpus::vx.name), 3u);  // a b c
  EXPECT_EQ(result.attribute_uint(corpus::vy.object, corpus::vy.name), 4u);  // a b d e
  EXPECT_EQ(result.attribute_uint(corpus::nnz.object, corpus::nnz.name), 7u);

  EXPECT_EQ(result.read_uint(pairs::pair_id.path()), (std::vector<std::uint64_t>{0, 1, 2, 3}));
  const std::vector<double> tdcone = result.read_double(pairs::tdcone.path());
  ASSERT_EQ(tdcone.size(), 4u);
  EXPECT_NEAR(tdcone[0], kPair0, 1e-12);
  EXPECT_EQ(tdcone[1], 0.0);
  EXPECT_EQ(tdcone[2], 0.0);
  EXPECT_TRUE(std::isnan(tdcone[3]));  // the bad line: not scored
  // 1 = lowest TD-CONE, ties by pair_id, the bad line last.
  EXPECT_EQ(result.read_uint(pairs::rank.path()), (std::vector<std::uint64_t>{3, 1, 2, 4}));
  const std::vector<std::uint64_t> flags = result.read_uint(pairs::flags.path());
  ASSERT_EQ(flags.size(), 4u);
  EXPECT_EQ(flags[0] & schema::bad_line, 0u);
  EXPECT_EQ(flags[3] & schema::bad_line, schema::bad_line);
  EXPECT_EQ(result.read_uint(pairs::src_len.path()), (std::vector<std::uint64_t>{3, 2, 2, 0}));
}

TEST_F(ScoreJob, ReverseScoresTheOtherDirection) {
  ScoreConfig config = worked_example();
  config.corpus.reverse = true;  // a d → a b c: a→a 1, d→b/c/NULL 1/3 each
  const ScoreRun r = run(config);
  // Reversed corpus: a d → a b c; a b e → a b; a → a b.
  // M: a→a 3; d→b 1/3, d→c 1/3, d→NULL 1/3; b→b 1; e→NULL 1; NULL→b 1.
  // T = 7; H = (3 · 1/3 · ln 3) / 7 = ln 3 / 7; |V_y| = 3 (a b c).
  EXPECT_NEAR(r.scores.subsets[0].tdcone, (kLn3 / 7) / std::log(4.0), 1e-12);
}

TEST_F(ScoreJob, MoreShardsThanUsableLinesStopWithStatus2) {
  ScoreConfig config = worked_example();
  config.shards = 4;  // 3 usable lines
  try {
    run(config);
    FAIL() << "4 shards of 3 lines were scored";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2) << e.what();
    EXPECT_NE(std::string(e.what()).find('4'), std::string::npos) << e.what();
  }
}

TEST_F(ScoreJob, ShardsPartitionTheScoredPairs) {
  ScoreConfig config = worked_example();
  config.shards = 2;
  const ScoreRun r = run(config);
  EXPECT_EQ(r.shards, 2u);
  ASSERT_GE(r.scores.subsets.size(), 3u);
  EXPECT_EQ(r.scores.subsets[1].n_pairs + r.scores.subsets[2].n_pairs, 3u);
  const hdf5::Reader result(dir_.path("out.h5"));
  EXPECT_EQ(result.read_uint(schema::shards::shard.path()), (std::vector<std::uint64_t>{0, 1}));
  const auto n = result.read_uint(schema::shards::n_pairs.path());
  EXPECT_EQ(n[0] + n[1], 3u);
}

}  // namespace
}  // namespace tdcone::jobs
