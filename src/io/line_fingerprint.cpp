#include "tdcone/io/line_fingerprint.hpp"

// Inlined: a line is a few hundred bytes, which the library's call hashes slower.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace tdcone::io {

namespace {
constexpr std::uint64_t kBase = 0x9E3779B97F4A7C15ull;  // odd (2^64 / golden ratio)
constexpr std::uint64_t kTooLong = 0x746F6F2D6C6F6E67ull;  // "too-long": a line whose bytes were not kept
}  // namespace

void LineFingerprint::add(std::string_view line, bool too_long) {
  const std::uint64_t hash = too_long ? kTooLong : XXH3_64bits(line.data(), line.size());
  sum_ += hash * power_;
  power_ *= kBase;
  ++lines_;
}

std::uint64_t LineFingerprint::shifted(std::uint64_t sum, std::uint64_t first_line) {
  std::uint64_t power = 1, base = kBase;
  for (std::uint64_t e = first_line; e != 0; e >>= 1) {  // B^first_line by squaring
    if (e & 1) power *= base;
    base *= base;
  }
  return sum * power;
}

}  // namespace tdcone::io
