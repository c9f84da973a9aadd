#pragma once
// Zipf draws over the ranks of a word list.
#include <cstdint>
#include <vector>

#include "tdcone/synth/random.hpp"

namespace tdcone::synth {

/// Zipf(s) over ranks 0..n-1 by Vose's alias method: O(1) per draw.
class ZipfSampler {
 public:
  /// P(k) ~ (k + 1 + offset)^-exponent: a positive offset flattens the head (Zipf-Mandelbrot).
  ZipfSampler(std::uint32_t n, double exponent, double offset = 0);

  /// A rank drawn from `rng`.
  std::uint32_t operator()(Rng& rng) const {
    const std::uint64_t r = rng.next();
    const auto k = static_cast<std::uint32_t>(((r >> 32) * threshold_.size()) >> 32);
    return (r & 0xFFFFFFFFu) < threshold_[k] ? k : alias_[k];
  }

 private:
  std::vector<std::uint64_t> threshold_;  // P(keep k) scaled to 2^32
  std::vector<std::uint32_t> alias_;
};

}  // namespace tdcone::synth
