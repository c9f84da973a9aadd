#pragma once
// Deterministic synthetic parallel corpus (SPEC §7 `tdcone synth`).
#include <cstdint>
#include <string>

namespace tdcone::synth {

struct SynthOptions {
  std::uint64_t pairs = 10000;
  std::uint64_t first_pair = 0;      // write lines [first_pair, first_pair + pairs): held-out sets of one corpus
  std::uint64_t seed = 1;
  std::uint32_t vocabulary = 50000;  // word types of the Zipfian vocabulary
  double zipf_exponent = 1.07;
  double junk_fraction = 0.002;      // empty sides, over-long lines, lines without a tab
  bool zstd = false;                 // multi-frame zstd output
  int zstd_level = 3;
};

/// Writes `options.pairs` lines "src \t tgt \t score \t id" to `path`
/// ("-" = stdout). Same options, same bytes. Throws IoError.
void write_corpus(const SynthOptions& options, const std::string& path);

}  // namespace tdcone::synth
