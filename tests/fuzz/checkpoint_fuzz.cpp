// `select --resume` checkpoints through select::read_checkpoint: whatever a
// file holds, a UsageError, never a crash. Random bytes stop at the checksum,
// so the harness writes a right header, checksum and fingerprint itself and
// fuzzes what lies behind them, as a forged or buggy checkpoint would:
//   input = u32 AVAIL lines, u32 lexicon size (the sizes the state must fit),
//           then the zstd frame of the archived SelectionState.
// Seeds in corpus/checkpoint: frames of real checkpoints (20,000 AVAIL lines,
// a lexicon of 27,954 words), cut from files `tdcone select` wrote on SIGUSR1.
#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "fuzz_input.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/select/checkpoint.hpp"

using namespace tdcone;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 8) return 0;
  std::uint32_t sizes[2];
  std::memcpy(sizes, data, sizeof sizes);
  constexpr std::uint32_t kMostLines = 1u << 22;  // the check of pair ids keeps a bit per AVAIL line
  const select::CheckpointKey key{{}, std::min(sizes[0], kMostLines), std::min(sizes[1], kMostLines)};

  const select::Fingerprint fingerprint{};
  std::string rest(reinterpret_cast<const char*>(&fingerprint), sizeof fingerprint);
  rest.append(reinterpret_cast<const char*>(data) + 8, size - 8);
  XXH128_canonical_t checksum;
  XXH128_canonicalFromHash(&checksum, XXH3_128bits(rest.data(), rest.size()));
  std::string file = "tdcone-checkpoint-2\n";
  file.append(reinterpret_cast<const char*>(&checksum), sizeof checksum).append(rest);
  try {
    select::read_checkpoint(fuzz::as_file(reinterpret_cast<const std::uint8_t*>(file.data()), file.size()), key);
  } catch (const UsageError&) {
  }
  return 0;
}
