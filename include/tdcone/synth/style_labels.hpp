#pragma once
// The style label columns of `tdcone synth --labels`: formality and arousal.
#include <cstdint>
#include <string>

#include "tdcone/synth/random.hpp"
#include "tdcone/synth/synth.hpp"

namespace tdcone::synth {

/// Writes columns 5 and 6; a share of them bad (unparsable or missing), as junk lines are.
class LabelWriter {
 public:
  explicit LabelWriter(const SynthOptions& options) : seed_(options.seed), bad_(options.junk_fraction / 2) {}

  /// Appends "\t" formality "\t" arousal for line `index` about `topic` (formality) and `story`
  /// (arousal); `closeness` is standardized (mean 0, sd 1 over the corpus). Its own streams: the
  /// corpus's other columns keep their bytes.
  void append(std::uint64_t index, std::uint64_t topic, std::uint64_t story, double closeness,
              std::string& out) const;

 private:
  Rng stream(std::uint64_t key, std::uint64_t salt) const {
    return Rng((seed_ * 0xA0761D6478BD642Full + key) ^ (salt << 8));
  }

  std::uint64_t seed_;
  double bad_;
};

}  // namespace tdcone::synth
