// Balanced and skewed quotas by hand: the paper's Table 1, the joint floor,
// absent combinations, capped IPF, Hamilton's ties, the share figures, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "tdcone/core/error.hpp"
#include "tdcone/label/balance_plan.hpp"

namespace tdcone::label {
namespace {

using Quotas = std::vector<std::uint64_t>;
using Flags = std::vector<std::uint8_t>;

BalancePlan plan(std::vector<std::size_t> values, Quotas counts, BalanceMode mode, std::uint64_t size = 0,
                 double min_share = 0.05) {
  BalanceRequest request;
  request.mode = mode;
  request.size = size;
  request.min_share = min_share;
  return plan_balance(LabelCounts{std::move(values), std::move(counts)}, request);
}

bool has_warning(const BalancePlan& plan, const std::string& part) {
  for (const std::string& warning : plan.warnings)
    if (warning.find(part) != std::string::npos) return true;
  return false;
}

// Formality × arousal, Table 1's skewed column scaled up; the rarest holds 6.1%.
const Quotas kTable1 = {35610, 11448, 5228, 3395};

TEST(BalancePlanTest, PaperTable1JointCutsEveryCombinationToTheRarest) {
  const BalancePlan p = plan({2, 2}, kTable1, BalanceMode::joint);
  EXPECT_EQ(p.quota, (Quotas{3395, 3395, 3395, 3395}));
  EXPECT_EQ(p.under_represented, (Flags{0, 0, 0, 0}));
  EXPECT_EQ(p.total_before, 55681u);
  EXPECT_EQ(p.total_after, 13580u);
  EXPECT_DOUBLE_EQ(p.target[0], 3395);
  EXPECT_DOUBLE_EQ(p.share_std_after, 0);
  EXPECT_GT(p.share_std_before, 0.2);
  EXPECT_EQ(p.marginal_deviation, (std::vector<double>{0, 0}));
  EXPECT_TRUE(p.warnings.empty());
}

TEST(BalancePlanTest, PaperTable1SkewedAtTheJointSize) {
  // 13580 · c / 55681: 483583800 / 55681 = 8684.86, 155463840 / 55681 = 2792.05,
  // 70996240 / 55681 = 1275.05, 46104100 / 55681 = 828.004; the floors sum to
  // 13579 and the one unit left goes to the largest remainder, 8684.86.
  const BalancePlan p = plan({2, 2}, kTable1, BalanceMode::skewed);
  EXPECT_EQ(p.quota, (Quotas{8685, 2792, 1275, 828}));
  EXPECT_EQ(p.total_after, 13580u);
  EXPECT_NEAR(p.target[0], 483583800.0 / 55681, 1e-9);
  EXPECT_EQ(p.under_represented, (Flags{0, 0, 0, 0}));
  // The same as a single label of four values.
  EXPECT_EQ(plan({4}, kTable1, BalanceMode::skewed).quota, p.quota);
}

TEST(BalancePlanTest, JointKeepsAllOfACombinationUnderTheFloor) {
  // N = 980: 30 / 980 = 3.1% < 5%, so T = 150, the rarest of the other three.
  const BalancePlan p = plan({2, 2}, {500, 300, 150, 30}, BalanceMode::joint);
  EXPECT_EQ(p.quota, (Quotas{150, 150, 150, 30}));
  EXPECT_EQ(p.under_represented, (Flags{0, 0, 0, 1}));
  EXPECT_EQ(p.target, (std::vector<double>{150, 150, 150, 30}));
  EXPECT_EQ(p.total_after, 480u);
  // Shares after: 0.3125 × 3 and 0.0625, mean 0.25: variance (3 · 0.0625² + 0.1875²) / 4 = 3/256.
  EXPECT_NEAR(p.share_std_after, std::sqrt(3.0) / 16, 1e-12);
  // First label: (150 + 150) / 480 = 0.625; second: (150 + 150) / 480 too.
  EXPECT_NEAR(p.marginal_deviation[0], 0.125, 1e-12);
  EXPECT_NEAR(p.marginal_deviation[1], 0.125, 1e-12);
  // With no floor the rarest sets the size.
  EXPECT_EQ(plan({2, 2}, {500, 300, 150, 30}, BalanceMode::joint, 0, 0).quota, (Quotas{30, 30, 30, 30}));
}

TEST(BalancePlanTest, JointFlagsAnAbsentCombination) {
  const BalancePlan p = plan({2, 2}, {400, 200, 0, 100}, BalanceMode::joint);
  EXPECT_EQ(p.quota, (Quotas{100, 100, 0, 100}));
  EXPECT_EQ(p.under_represented, (Flags{0, 0, 1, 0}));
  EXPECT_DOUBLE_EQ(p.target[2], 100);  // what it would have got
  // Shares over the three present: 1/3 each, before 4/7, 2/7, 1/7.
  EXPECT_NEAR(p.share_std_after, 0, 1e-12);
  const double mean = 1.0 / 3, before = std::sqrt((std::pow(4.0 / 7 - mean, 2) + std::pow(2.0 / 7 - mean, 2) +
                                                   std::pow(1.0 / 7 - mean, 2)) / 3);
  EXPECT_NEAR(p.share_std_before, before, 1e-12);
}

TEST(BalancePlanTest, JointWithNoCombinationAtTheFloorKeepsEverything) {
  // 25 equal combinations hold 4% each, under the 5% floor.
  const Quotas counts(25, 40);
  const BalancePlan p = plan({5, 5}, counts, BalanceMode::joint);
  EXPECT_EQ(p.quota, counts);
  EXPECT_EQ(p.under_represented, Flags(25, 1));
  EXPECT_EQ(p.total_after, 1000u);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_TRUE(has_warning(p, "--min-share 0.05 of the lines (the largest holds 0.04)")) << p.warnings[0];
  EXPECT_TRUE(plan({5, 5}, counts, BalanceMode::joint, 0, 0.03).warnings.empty());
}

TEST(BalancePlanTest, EqualQuotasHaveAShareStdOfExactlyZero) {
  // The Twitter URL judgements (0,6)..(6,6): seven combinations cut to 583 each. Shares of 1/7 in
  // doubles left 2.6e-9; from the integer counts the spread n·Σq² - (Σq)² = 7·7·583² - (7·583)² is 0.
  const BalancePlan p = plan({7}, {4665, 1860, 988, 786, 583, 602, 636}, BalanceMode::joint);
  EXPECT_EQ(p.quota, Quotas(7, 583));
  EXPECT_EQ(p.share_std_after, 0.0);
  // Before: sqrt(7·Σc² - (Σc)²) / (7·Σc), Σc = 10120, Σc² = 27922554: sqrt(93043478) / 70840.
  EXPECT_NEAR(p.share_std_before, 0.13616466299940174, 1e-15);
  EXPECT_EQ(plan({2, 2}, {5, 5, 0, 5}, BalanceMode::joint).share_std_after, 0.0);  // absent ones do not count
  // 150, 150, 150, 30 of 480: sqrt(4·68400 - 480²) / (4·480) = sqrt(43200) / 1920 = sqrt(3) / 16.
  EXPECT_NEAR(plan({2, 2}, {500, 300, 150, 30}, BalanceMode::joint).share_std_after, std::sqrt(3.0) / 16, 1e-15);
}

TEST(BalancePlanTest, ShareStdIsTheNearestDoubleOfTheExactValue) {
  // sqrt(4·Σc² - (Σc)²) / (4·Σc) = sqrt(364640756) / 79928 = 0.23890963135354881952...
  // (50 digits by Python's decimal), between the doubles 0.2389096313535488 (2.0e-17 below) and
  // 0.23890963135354884 (2.1e-17 above); a root and a division in doubles gave the farther one.
  EXPECT_EQ(plan({2, 2}, {1823, 1100, 13054, 4005}, BalanceMode::joint).share_std_before, 0.2389096313535488);
}

TEST(BalancePlanTest, ShareStdByHand) {
  // Shares 3/4 and 1/4 around 1/2: std 1/4 before; joint (no floor) keeps 1 and 1.
  const BalancePlan p = plan({2}, {3, 1}, BalanceMode::joint, 0, 0);
  EXPECT_DOUBLE_EQ(p.share_std_before, 0.25);
  EXPECT_EQ(p.quota, (Quotas{1, 1}));
  EXPECT_DOUBLE_EQ(p.share_std_after, 0);
  EXPECT_DOUBLE_EQ(p.marginal_deviation[0], 0);
  // Skewed to 2 lines: 1.5 and 0.5, the tie in the remainders goes to the first.
  const BalancePlan s = plan({2}, {3, 1}, BalanceMode::skewed, 2);
  EXPECT_EQ(s.quota, (Quotas{2, 0}));
  EXPECT_DOUBLE_EQ(s.share_std_after, 0.5);  // shares 1 and 0
  EXPECT_DOUBLE_EQ(s.marginal_deviation[0], 0.5);
}

TEST(BalancePlanTest, MarginalMeetsUniformMarginalsUnderTheCaps) {
  // a1b1 = 60, a1b2 = 30, a2b1 = 20, a2b2 = 10: T0 = min(2 · 30, 2 · 40) = 60,
  // 30 lines per value. Uniform marginals mean x, 30 - x, 30 - x, x, and the
  // cap a2b1 <= 20 with x <= 10 (a2b2) leaves x = 10 alone.
  const BalancePlan p = plan({2, 2}, {60, 30, 20, 10}, BalanceMode::marginal);
  EXPECT_EQ(p.quota, (Quotas{10, 20, 20, 10}));
  EXPECT_EQ(p.total_after, 60u);
  EXPECT_EQ(p.marginal_deviation, (std::vector<double>{0, 0}));
  EXPECT_NEAR(p.target[1], 20, 1e-6);
  EXPECT_TRUE(p.warnings.empty());
}

TEST(BalancePlanTest, MarginalWithStructuralZeros) {
  const BalancePlan uniform = plan({2, 2}, {50, 0, 0, 50}, BalanceMode::marginal);
  EXPECT_EQ(uniform.quota, (Quotas{50, 0, 0, 50}));
  EXPECT_TRUE(uniform.warnings.empty());
  // Only x, 0, 0, x has uniform marginals: x = 20, the smaller diagonal.
  const BalancePlan skewed = plan({2, 2}, {60, 0, 0, 20}, BalanceMode::marginal);
  EXPECT_EQ(skewed.quota, (Quotas{20, 0, 0, 20}));
  EXPECT_EQ(skewed.marginal_deviation, (std::vector<double>{0, 0}));
  EXPECT_TRUE(skewed.warnings.empty());
  // a1b1 40, a1b2 20, a2b2 10: T0 = 20, a2b2 = 10 forces a1b2 = 0 and a1b1 = 10.
  // The fit only nears a1b2 = 0 like 1/sweeps (a warning), the rounding lands on it.
  const BalancePlan emptied = plan({2, 2}, {40, 20, 0, 10}, BalanceMode::marginal);
  EXPECT_EQ(emptied.quota, (Quotas{10, 0, 0, 10}));
  EXPECT_TRUE(has_warning(emptied, "did not converge"));
}

TEST(BalancePlanTest, MarginalWithAThreeValuedLabel) {
  // A (3 values) × B (2): a1b1 50, a1b2 10, a2b1 40, a2b2 2, a3b1 6, a3b2 6.
  // A: 60, 42, 12 → 36; B: 96, 18 → 36; so T0 = 36, 12 per A value, 18 per B value.
  // a3 and b2 must keep all their lines (12 and 18), which fixes a1b2 = 10,
  // a2b2 = 2, a3 = 6 + 6, then a1b1 = 12 - 10 = 2 and a2b1 = 12 - 2 = 10.
  const BalancePlan p = plan({3, 2}, {50, 10, 40, 2, 6, 6}, BalanceMode::marginal);
  EXPECT_EQ(p.quota, (Quotas{2, 10, 10, 2, 6, 6}));
  EXPECT_EQ(p.total_after, 36u);
  EXPECT_NEAR(p.marginal_deviation[0], 0, 1e-12);
  EXPECT_NEAR(p.marginal_deviation[1], 0, 1e-12);
  EXPECT_TRUE(p.warnings.empty());
}

TEST(BalancePlanTest, MarginalWarnsWhenNoSubsetIsUniform) {
  // a1 only with b2, a2 and a3 only with b1: a1b2 = T/3 = T/2 has no answer but 0.
  // T0 = min(3 · 10, 2 · 10) = 20. Each sweep sets the A values to 20/3, then
  // b1 = 40/3 scales a2b1, a3b1 to 5 and b2 = 20/3 scales a1b2 back to its cap 10.
  const BalancePlan p = plan({3, 2}, {0, 10, 10, 0, 10, 0}, BalanceMode::marginal);
  EXPECT_EQ(p.quota, (Quotas{0, 10, 5, 0, 5, 0}));
  EXPECT_TRUE(has_warning(p, "did not converge")) << (p.warnings.empty() ? "" : p.warnings[0]);
  EXPECT_TRUE(has_warning(p, "50% off its target"));  // a1: 10 for 20/3
  // A label with a value never seen cannot be balanced: it is left out.
  const BalancePlan unseen = plan({3}, {5, 0, 5}, BalanceMode::marginal);
  EXPECT_EQ(unseen.quota, (Quotas{5, 0, 5}));
  EXPECT_TRUE(has_warning(unseen, "label 0 has a value with no line"));
}

TEST(BalancePlanTest, SkewedBreaksTiesInTheRemaindersBySmallerIndex) {
  // N = 6, size 3: floors 1, 0, 0, 1; remainders 0, 3, 3, 0 (sixths): the unit goes to index 1.
  EXPECT_EQ(plan({4}, {2, 1, 1, 2}, BalanceMode::skewed, 3).quota, (Quotas{1, 1, 0, 1}));
  // N = 3, size 2: remainders 2, 2, 2 (thirds): the first two.
  EXPECT_EQ(plan({3}, {1, 1, 1}, BalanceMode::skewed, 2).quota, (Quotas{1, 1, 0}));
  // N = 7, size 3: 3/7, 6/7, 12/7 → floors 0, 0, 1; remainders 3, 6, 5: units to 1 and 2, not 0.
  const BalancePlan p = plan({3}, {1, 2, 4}, BalanceMode::skewed, 3);
  EXPECT_EQ(p.quota, (Quotas{0, 1, 2}));
  EXPECT_DOUBLE_EQ(p.target[2], 12.0 / 7);
  // The whole set at size N.
  EXPECT_EQ(plan({3}, {1, 2, 4}, BalanceMode::skewed, 7).quota, (Quotas{1, 2, 4}));
}

TEST(BalancePlanTest, BadRequestsThrow) {
  EXPECT_THROW(plan({3}, {1, 2, 4}, BalanceMode::skewed, 8), UsageError);
  try {
    plan({3}, {1, 2, 4}, BalanceMode::skewed, 8);
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "--size 8 is more than the 7 labelled lines");
  }
  for (const double share : {-0.1, 1.0, std::numeric_limits<double>::quiet_NaN()})
    EXPECT_THROW(plan({2}, {3, 1}, BalanceMode::joint, 0, share), UsageError) << share;
  EXPECT_NO_THROW(plan({2}, {3, 1}, BalanceMode::joint, 0, 0.99));
  EXPECT_THROW(plan({2, 2}, {0, 0, 0, 0}, BalanceMode::joint), UsageError);
  EXPECT_THROW(plan({2, 2}, {1, 2, 3}, BalanceMode::joint), std::logic_error);
  EXPECT_THROW(plan({2, 0}, {}, BalanceMode::joint), std::logic_error);
  EXPECT_THROW(plan({}, {5}, BalanceMode::joint), std::logic_error);
}

TEST(BalancePlanTest, ModeFromName) {
  EXPECT_EQ(balance_mode_from_name("joint"), BalanceMode::joint);
  EXPECT_EQ(balance_mode_from_name("marginal"), BalanceMode::marginal);
  EXPECT_EQ(balance_mode_from_name("skewed"), BalanceMode::skewed);
  try {
    balance_mode_from_name("Joint");
    FAIL() << "accepted 'Joint'";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "--mode must be joint, marginal or skewed: got 'Joint'");
  }
}

}  // namespace
}  // namespace tdcone::label
