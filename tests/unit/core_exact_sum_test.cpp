// Exact sums (docs/spec.md §9): the same bits whatever the order of the terms or
// how they are split over ranks.
#include "tdcone/core/exact_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace tdcone {
namespace {

TEST(ExactSumTest, SameBitsInAnyOrder) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> term(-50.0, 1e6);
  std::vector<double> terms(100000);
  for (auto& t : terms) t = term(rng) * (rng() % 7 == 0 ? 1e-9 : 1.0);
  ExactSum forward;
  for (double t : terms) forward.add(t);
  std::shuffle(terms.begin(), terms.end(), rng);
  ExactSum shuffled, halves[2];
  for (std::size_t i = 0; i < terms.size(); ++i) {
    shuffled.add(terms[i]);
    halves[i % 2].add(terms[i]);
  }
  halves[0] += halves[1];
  EXPECT_EQ(forward.value(), shuffled.value());
  EXPECT_EQ(forward.value(), halves[0].value());
  long double exact = 0;
  for (double t : terms) exact += t;
  EXPECT_NEAR(forward.value(), static_cast<double>(exact), 1e-9 * std::abs(static_cast<double>(exact)));
}

TEST(ExactSumTest, NegativeAndTinyTerms) {
  ExactSum s;
  s.add(-2.5);
  s.add(0.75);
  s.add(std::ldexp(1.0, -60));
  EXPECT_EQ(s.value(), -1.75 + std::ldexp(1.0, -60));
}

}  // namespace
}  // namespace tdcone
