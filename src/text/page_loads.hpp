#pragma once
// Loads that may run past the end of a word or a sentence, and of its
// buffer, but never past the page of their first byte: such a load cannot
// fault. The caller masks off the bytes past the end, so no result depends
// on them; ASan, which would flag them, does not look at these two loads.
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <cstddef>
#include <cstdint>

namespace tdcone::text {

// The smallest page: every page's bounds are on multiples of it.
inline constexpr std::uintptr_t kPageBytes = 4096;

/// Whether the `bytes` bytes from p lie in p's page.
inline bool within_page(const char* p, std::size_t bytes) {
  return (reinterpret_cast<std::uintptr_t>(p) & (kPageBytes - 1)) <= kPageBytes - bytes;
}

// Eight bytes at any address, of any type (not memcpy: ASan checks its range).
struct [[gnu::packed, gnu::may_alias]] UnalignedWord {
  std::uint64_t value;
};

/// The eight bytes at p (little-endian); within_page(p, 8) must hold.
[[gnu::no_sanitize_address]] inline std::uint64_t load_eight_in_page(const char* p) {
  return reinterpret_cast<const UnalignedWord*>(p)->value;
}

#ifdef __SSE2__
/// The sixteen bytes at p; within_page(p, 16) must hold.
[[gnu::no_sanitize_address]] inline __m128i load_sixteen_in_page(const char* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
#endif

}  // namespace tdcone::text
