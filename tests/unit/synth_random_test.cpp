// The random source of `tdcone synth` (synth/random.hpp): one sequence a
// seed, draws in range, a standard normal.
#include "tdcone/synth/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace tdcone::synth {
namespace {

TEST(SynthRandom, ASeedIsOneSequenceAndDrawsStayInRange) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    differs = differs || x != c.next();
  }
  EXPECT_TRUE(differs);
  for (int i = 0; i < 10000; ++i) {
    const double u = a.uniform();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
    EXPECT_LT(a.below(7), 7u);
  }
}

TEST(SynthRandom, NormalHasMeanZeroAndSdOne) {
  Rng rng(5);
  double sum = 0, squares = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = normal(rng);
    sum += x;
    squares += x * x;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(std::sqrt(squares / n), 1.0, 0.01);
}

}  // namespace
}  // namespace tdcone::synth
