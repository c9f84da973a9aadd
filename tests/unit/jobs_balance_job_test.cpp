// The balance job (jobs/balance_job.hpp) on one rank: options that do not go
// together refused, each combination's lines ranked by TD-CONE (scored here
// or read from a score result) or by the seeded random order, the plan's
// quota of each kept, --where leaving lines out, and /balance and
// /combinations as written.
#include "tdcone/jobs/balance_job.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <xxhash.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "tdcone/hdf5/reader.hpp"
#include "tdcone/jobs/score_job.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/results.hpp"
#include "temp_files.hpp"

namespace tdcone::jobs {
namespace {

namespace bmpi = boost::mpi;
using U64s = std::vector<std::uint64_t>;
using Strings = std::vector<std::string>;

// Column 3 is the label. Combination x: lines 0 and 2 copy their input (pair
// TD-CONE 0), 1 and 3 spread it; y: line 4 copies, 5 spreads. Line 6 is bad.
const char kCorpus[] =
    "a\ta\tx\n"
    "p q\tr s\tx\n"
    "b\tb\tx\n"
    "c d e\tf g\tx\n"
    "u\tu\ty\n"
    "v w\tz\ty\n"
    "no second column\n";

class BalanceJob : public ::testing::Test {
 protected:
  BalanceConfig labelled(const std::string& corpus = kCorpus) {
    BalanceConfig config;
    config.corpus.inputs = {dir_.write("corpus.tsv", corpus)};
    config.labels.cols = "3";
    config.output.output = dir_.path("balanced.h5");
    config.output.force = true;
    config.read_run_config = [](const std::string&, const std::string&) { return exporting::RunSettings{}; };
    return config;
  }
  BalanceRun run(const BalanceConfig& config) {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    return run_balance_job(self, config, "");
  }
  // The message of the CollectiveError the job stops with (status 2), or "".
  std::string refusal(const BalanceConfig& config) {
    try {
      run(config);
    } catch (const mpi::CollectiveError& e) {
      EXPECT_EQ(e.exit_status, 2) << e.what();
      return e.what();
    }
    return "";
  }
  // A score result of the corpus of `config` (with --dedup `dedup`).
  std::string score_result(const BalanceConfig& config, text::DedupMode dedup = text::DedupMode::none) {
    ScoreConfig score;
    score.corpus.inputs = config.corpus.inputs;
    score.corpus.dedup = dedup;
    score.output.output = dir_.path("scores.h5");
    score.output.force = true;
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    run_score_job(self, score, "");
    return score.output.output;
  }
  hdf5::Reader result() const { return hdf5::Reader(dir_.path("balanced.h5")); }

  test_support::TempDir dir_{"tdcone_balance_job_test"};
};

TEST_F(BalanceJob, OptionsThatDoNotGoTogetherAreRefused) {
  BalanceConfig none = labelled();
  none.labels.cols.clear();
  EXPECT_EQ(refusal(none), "balance needs labels: --label-cols (TSV) or --label-fields (JSONL)");
  BalanceConfig size = labelled();
  size.size = 3;
  EXPECT_EQ(refusal(size), "--size is the total of --mode skewed");
  BalanceConfig cynical = labelled();
  cynical.rank_by = RankBy::cynical;
  EXPECT_EQ(refusal(cynical),
            "--rank-by cynical takes the ranks of a select result of this corpus: give it with --ranking");
  BalanceConfig random = labelled();
  random.rank_by = RankBy::random;
  random.ranking = dir_.write("r.h5", "x");
  EXPECT_EQ(refusal(random), "--ranking is for --rank-by tdcone or cynical");
}

TEST_F(BalanceJob, JointKeepsTheLowestTdconeLinesOfEachCombination) {
  const BalanceRun r = run(labelled());
  EXPECT_EQ(r.counts.lines, 7u);
  EXPECT_EQ(r.counts.flagged, 1u);
  EXPECT_EQ(r.names, (Strings{"x", "y"}));
  EXPECT_EQ(r.labels.counts, (U64s{4, 2}));
  EXPECT_EQ(r.plan.quota, (U64s{2, 2}));  // every combination down to the rarest
  ASSERT_TRUE(r.scores.has_value());      // TD-CONE was scored in this run

  const hdf5::Reader out = result();
  using namespace schema;
  EXPECT_EQ(out.read_uint(balance::pair_id.path()), (U64s{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(out.read_strings(balance::combination.path()), (Strings{"x", "x", "x", "x", "y", "y", ""}));
  EXPECT_EQ(out.read_uint(balance::kept.path()), (U64s{1, 0, 1, 0, 1, 1, 0}));
  // Lines 0 and 2 (TD-CONE 0) first; 1 and 3 spread every word evenly over
  // the output's words and NULL (TD-CONE 1), a tie that pair_id breaks. The
  // bad line is in no combination.
  EXPECT_EQ(out.read_uint(balance::rank_in_combination.path()), (U64s{1, 3, 2, 4, 1, 2, 0}));
  const std::vector<double> tdcone = out.read_double(pairs::tdcone.path());  // written by this run
  ASSERT_EQ(tdcone.size(), 7u);
  EXPECT_EQ(tdcone[0], 0.0);
  EXPECT_EQ(tdcone[2], 0.0);
  EXPECT_NEAR(tdcone[1], 1.0, 1e-12);
  EXPECT_NEAR(tdcone[3], 1.0, 1e-12);
  EXPECT_EQ(out.read_uint(balance::flags.path())[6] & bad_line, bad_line);

  EXPECT_EQ(out.attribute_string(balance::mode.object, balance::mode.name), "joint");
  EXPECT_EQ(out.attribute_string(balance::rank_by.object, balance::rank_by.name), "tdcone");
  EXPECT_EQ(out.attribute_string(balance::labels.object, balance::labels.name), "col3");
  EXPECT_EQ(out.attribute_uint(balance::n_labelled.object, balance::n_labelled.name), 6u);
  EXPECT_EQ(out.attribute_uint(balance::n_kept.object, balance::n_kept.name), 4u);
  EXPECT_DOUBLE_EQ(out.attribute_double(balance::share_std_after.object, balance::share_std_after.name), 0.0);
  EXPECT_EQ(out.read_strings(combinations::combination.path()), (Strings{"x", "y"}));
  EXPECT_EQ(out.read_uint(combinations::before.path()), (U64s{4, 2}));
  EXPECT_EQ(out.read_double(combinations::target.path()), (std::vector<double>{2, 2}));
  EXPECT_EQ(out.read_uint(combinations::after.path()), (U64s{2, 2}));
  EXPECT_EQ(out.read_uint(combinations::under_represented.path()), (U64s{0, 0}));
}

TEST_F(BalanceJob, ARankingFromAScoreResultRanksAsScoringHereDoes) {
  run(labelled());
  const U64s scored_here = result().read_uint(schema::balance::rank_in_combination.path());
  BalanceConfig config = labelled();
  config.ranking = score_result(config);
  const BalanceRun r = run(config);
  EXPECT_FALSE(r.scores.has_value());  // nothing scored in this run
  const hdf5::Reader out = result();
  EXPECT_EQ(out.read_uint(schema::balance::rank_in_combination.path()), scored_here);
  EXPECT_EQ(out.read_uint(schema::balance::kept.path()), (U64s{1, 0, 1, 0, 1, 1, 0}));
  EXPECT_FALSE(out.exists(schema::pairs::group));
}

// The random order is that of a 53-bit hash of (pair_id, seed): the same for any rank count and release.
U64s random_ranks(const std::vector<std::uint64_t>& pairs, std::uint64_t seed) {
  std::vector<std::pair<double, std::uint64_t>> keyed;
  for (std::uint64_t id : pairs)
    keyed.emplace_back(static_cast<double>(XXH3_64bits_withSeed(&id, sizeof id, seed) >> 11), id);
  std::sort(keyed.begin(), keyed.end());
  U64s rank(7, 0);
  for (std::size_t k = 0; k < keyed.size(); ++k) rank[keyed[k].second] = k + 1;
  return rank;
}

TEST_F(BalanceJob, RandomRanksFollowTheSeededHashOfEachPair) {
  BalanceConfig config = labelled();
  config.rank_by = RankBy::random;
  for (std::uint64_t seed : {1u, 7u}) {
    config.seed = seed;
    const BalanceRun r = run(config);
    EXPECT_FALSE(r.scores.has_value());
    const U64s rank = result().read_uint(schema::balance::rank_in_combination.path());
    U64s expected = random_ranks({0, 1, 2, 3}, seed);
    const U64s in_y = random_ranks({4, 5}, seed);
    expected[4] = in_y[4], expected[5] = in_y[5];
    EXPECT_EQ(rank, expected) << "seed " << seed;
    const U64s kept = result().read_uint(schema::balance::kept.path());
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(kept[i], rank[i] <= 2 ? 1u : 0u) << "line " << i;
    EXPECT_EQ(result().attribute_string(schema::balance::rank_by.object, schema::balance::rank_by.name), "random");
  }
}

TEST_F(BalanceJob, SkewedKeepsTheNaturalSharesAtTheGivenSize) {
  BalanceConfig config = labelled();
  config.mode = label::BalanceMode::skewed;
  config.size = 3;  // 3 · 4/6 = 2 of x, 3 · 2/6 = 1 of y
  const BalanceRun r = run(config);
  EXPECT_EQ(r.plan.quota, (U64s{2, 1}));
  const hdf5::Reader out = result();
  EXPECT_EQ(out.read_uint(schema::balance::kept.path()), (U64s{1, 0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(out.attribute_string(schema::balance::mode.object, schema::balance::mode.name), "skewed");
  EXPECT_EQ(out.attribute_uint(schema::balance::n_kept.object, schema::balance::n_kept.name), 3u);
  EXPECT_EQ(out.read_uint(schema::combinations::after.path()), (U64s{2, 1}));
}

TEST_F(BalanceJob, WhereLeavesFailingLinesOutOfTheirCombination) {
  // Line 2 repeats line 0: a score --dedup exact result flags it a duplicate.
  BalanceConfig config = labelled("a\ta\tx\np q\tr s\tx\na\ta\tx\nc d e\tf g\tx\nu\tu\ty\nv w\tz\ty\nno second column\n");
  config.where.where = {"flags.duplicate==0"};
  config.where.where_result = score_result(config, text::DedupMode::exact);
  const BalanceRun r = run(config);
  EXPECT_EQ(r.left_out, 1u);
  EXPECT_EQ(r.labels.counts, (U64s{3, 2}));
  EXPECT_EQ(r.labels.labelled, 5u);
  const hdf5::Reader out = result();
  const U64s flags = out.read_uint(schema::balance::flags.path());
  EXPECT_EQ(flags[2] & schema::left_out, schema::left_out);
  for (std::size_t i : {0u, 1u, 3u, 4u, 5u, 6u}) EXPECT_EQ(flags[i] & schema::left_out, 0u) << "line " << i;
  EXPECT_EQ(out.read_strings(schema::balance::combination.path()), (Strings{"x", "x", "", "x", "y", "y", ""}));
  EXPECT_EQ(out.read_uint(schema::balance::kept.path())[2], 0u);
  EXPECT_EQ(out.read_uint(schema::combinations::before.path()), (U64s{3, 2}));
  EXPECT_EQ(out.attribute_uint(schema::balance::n_labelled.object, schema::balance::n_labelled.name), 5u);
}

}  // namespace
}  // namespace tdcone::jobs
