#pragma once
// Magic numbers of zstd frames (RFC 8878), shared by the frame scanner and
// the stream reader, which both detect compression from the first bytes.
#include <cstdint>

namespace tdcone::io {

inline constexpr std::uint32_t kZstdMagic = 0xFD2FB528;          // bytes 28 B5 2F FD
inline constexpr std::uint32_t kSkippableMagicMask = 0xFFFFFFF0;  // 0x184D2A50..0x184D2A5F
inline constexpr std::uint32_t kSkippableMagic = 0x184D2A50;

inline std::uint32_t little_endian(const unsigned char* p, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

inline bool is_skippable_magic(std::uint32_t magic) { return (magic & kSkippableMagicMask) == kSkippableMagic; }
// A file may also start with a skippable frame (pzstd writes one first); no
// text file starts with those bytes.
inline bool is_zstd_magic(std::uint32_t magic) { return magic == kZstdMagic || is_skippable_magic(magic); }

}  // namespace tdcone::io
