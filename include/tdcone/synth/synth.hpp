#pragma once
// Deterministic synthetic parallel corpus (docs/spec.md §7 `tdcone synth`).
#include <cstdint>
#include <string>

namespace tdcone::synth {

enum class Profile {
  twitter,     // news headlines, each with a run of candidate tweets (docs/synth-calibration.md)
  paraphrase,  // every line a fresh Zipfian sentence and a close paraphrase of it (easy, low TD-CONE)
};

struct SynthOptions {
  Profile profile = Profile::twitter;
  std::uint64_t pairs = 10000;
  std::uint64_t first_pair = 0;      // write lines [first_pair, first_pair + pairs): held-out sets of one corpus
  std::uint64_t seed = 1;
  std::uint32_t vocabulary = 50000;  // word types of the Zipfian vocabulary (twitter: besides its rare tokens)
  double zipf_exponent = 1.07;       // paraphrase only; the twitter profile has its own calibrated shape
  double junk_fraction = 0.002;      // empty sides, over-long lines, lines without a tab, bad scores
  bool labels = false;               // two more columns: formality [0, 1] and arousal (aroused | calm)
  bool zstd = false;                 // multi-frame zstd output
  int zstd_level = 3;
};

/// Profile by name ("twitter", "paraphrase"); throws UsageError for others.
Profile profile_from_name(const std::string& name);

/// Writes `options.pairs` lines "src \t tgt \t score \t id" to `path`
/// ("-" = stdout), with `labels` also "\t formality \t arousal" (the first four
/// columns the same bytes as without). Same options, same bytes. A file is
/// written under a temporary name beside `path` (locked like other outputs)
/// and renamed onto it once complete, so `path` is never a cut-off corpus and
/// a file already there stays whole until then; the temporary file is removed
/// on an error, SIGTERM, SIGINT or SIGHUP. Throws IoError.
void write_corpus(const SynthOptions& options, const std::string& path);

}  // namespace tdcone::synth
