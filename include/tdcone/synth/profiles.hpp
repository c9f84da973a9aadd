#pragma once
// The profiles of `tdcone synth`: each writes line `index` of its corpus.
#include <cstdint>
#include <memory>
#include <string>

#include "tdcone/synth/synth.hpp"

namespace tdcone::synth {

/// The lines of one synthetic corpus, each a function of the options and its index.
class LineSource {
 public:
  virtual ~LineSource() = default;
  /// Appends line `index` (with its '\n') to `out`; lines are asked for in increasing order.
  virtual void append_line(std::uint64_t index, std::string& out) = 0;
};

/// Profile::paraphrase: every line a fresh Zipfian sentence and a close paraphrase of it.
std::unique_ptr<LineSource> paraphrase_profile(const SynthOptions& options);
/// Profile::twitter: news headlines, each with a run of candidate tweets.
std::unique_ptr<LineSource> twitter_profile(const SynthOptions& options);

}  // namespace tdcone::synth
