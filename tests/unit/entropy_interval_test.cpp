// Intervals over replicates (entropy/interval.hpp): values worked by hand.
#include "tdcone/entropy/interval.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tdcone::entropy {
namespace {

const double nan = Interval::kNaN;

TEST(Interval, MeanSampleSdAndNumpyPercentiles) {
  // 1, 2, 3, 4: mean 2.5; sd sqrt(5/3); 2.5 %: rank 0.075 -> 1.075; 97.5 %: rank 2.925 -> 3.925.
  const Interval i = interval_of({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(i.mean, 2.5);
  EXPECT_DOUBLE_EQ(i.sd, std::sqrt(5.0 / 3.0));
  EXPECT_DOUBLE_EQ(i.lo, 1.075);
  EXPECT_DOUBLE_EQ(i.hi, 3.925);
}

TEST(Interval, EqualValuesHaveThatMeanExactly) {
  const Interval i = interval_of({0.9923031, 0.9923031, 0.9923031});
  EXPECT_EQ(i.mean, 0.9923031);
  EXPECT_EQ(i.sd, 0.0);
  EXPECT_EQ(i.lo, 0.9923031);
}

TEST(Interval, OneValueHasNoSpreadAndANaNSpoilsAll) {
  const Interval one = interval_of({0.3});
  EXPECT_DOUBLE_EQ(one.mean, 0.3);
  EXPECT_TRUE(std::isnan(one.sd));
  EXPECT_DOUBLE_EQ(one.lo, 0.3);
  EXPECT_DOUBLE_EQ(one.hi, 0.3);
  const Interval spoiled = interval_of({0.3, nan});
  EXPECT_TRUE(std::isnan(spoiled.mean) && std::isnan(spoiled.lo) && std::isnan(spoiled.hi));
  EXPECT_TRUE(std::isnan(interval_of({}).mean));
}

TEST(BestShares, LowestWinsTiesShareAndNaNNeverWins) {
  // Replicate 0: row 1 lowest; 1: rows 0 and 1 tied; 2: row 2 (row 0 NaN); 3: all NaN, counts for none.
  const std::vector<double> shares = best_shares({{0.5, 0.2, 0.9}, {0.1, 0.1, 0.4}, {nan, 0.7, 0.3}, {nan, nan, nan}});
  EXPECT_DOUBLE_EQ(shares[0], 0.5 / 4);
  EXPECT_DOUBLE_EQ(shares[1], 1.5 / 4);
  EXPECT_DOUBLE_EQ(shares[2], 1.0 / 4);
}

Interval spanning(double lo, double mean, double hi) { return {mean, 0.1, lo, hi}; }

TEST(ClearBest, OnlyWhenTheLowestIntervalIsBelowEveryOther) {
  EXPECT_EQ(clear_best({spanning(0.5, 0.6, 0.7), spanning(0.1, 0.2, 0.3), spanning(0.35, 0.4, 0.45)}), 1u);
  // The runner-up's interval reaches into the best one's: no clear best.
  EXPECT_EQ(clear_best({spanning(0.5, 0.6, 0.7), spanning(0.1, 0.2, 0.3), spanning(0.29, 0.4, 0.45)}), kNoClearBest);
  // An empty row (NaN) is no rival; one row alone is no comparison.
  EXPECT_EQ(clear_best({spanning(0.1, 0.2, 0.3), Interval{}, spanning(0.5, 0.6, 0.7)}), 0u);
  EXPECT_EQ(clear_best({spanning(0.1, 0.2, 0.3), Interval{}}), kNoClearBest);
}

}  // namespace
}  // namespace tdcone::entropy
