#pragma once
// The random source of synth: our own generator and samplers (no std::
// distributions), so a corpus is the same bytes with any standard library.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace tdcone::synth {

/// SplitMix64: the next value of the sequence at `state` (advanced); seeds Rng.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// xoshiro256**, seeded by SplitMix64.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = std::rotl(state_[3], 45);
    return result;
  }

  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  bool chance(double p) { return uniform() < p; }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }

 private:
  std::array<std::uint64_t, 4> state_;
};

/// Roughly standard normal: a sum of 4 uniforms (Irwin-Hall) scaled to sd 1, from our own generator.
inline double normal(Rng& rng) {
  return (rng.uniform() + rng.uniform() + rng.uniform() + rng.uniform() - 2) * std::sqrt(3.0);
}

}  // namespace tdcone::synth
