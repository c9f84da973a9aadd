// The Zipf sampler of `tdcone synth` (synth/zipf_sampler.hpp): ranks drawn
// with frequencies 1/k over the harmonic number.
#include "tdcone/synth/zipf_sampler.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tdcone/synth/random.hpp"

namespace tdcone::synth {
namespace {

TEST(SynthZipfSampler, DrawsRanksWithZipfFrequencies) {
  const std::uint32_t n = 10;
  const ZipfSampler zipf(n, 1.0);
  Rng rng(9);
  std::vector<int> counts(n, 0);
  const int draws = 500000;
  for (int i = 0; i < draws; ++i) ++counts[zipf(rng)];
  double harmonic = 0;
  for (std::uint32_t k = 0; k < n; ++k) harmonic += 1.0 / (k + 1);
  for (std::uint32_t k = 0; k < n; ++k)
    EXPECT_NEAR(counts[k] / double(draws), 1.0 / (k + 1) / harmonic, 0.005) << "rank " << k;
}

}  // namespace
}  // namespace tdcone::synth
