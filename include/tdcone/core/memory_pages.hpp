#pragma once
// Which pages of memory the process holds: given back as a buffer is
// consumed, and spare capacity freed where it is large.
#include <cstdint>

namespace tdcone {

/// Returns to the operating system the whole pages between `begin` and `end`,
/// bytes the caller will never read again (they read as zeros after; the
/// buffer stays allocated and is freed as usual). A buffer read once from the
/// front, such as the word types the score engine aligns, then stops counting
/// in the resident memory as it goes, without a copy: what grows meanwhile
/// (the alignment matrix) takes its place. Advisory: on failure nothing changes.
void release_pages(const void* begin, const void* end);

/// Frees the spare capacity of each container whose spare is more than a
/// quarter of its size (doubling growth can leave it half empty). A smaller
/// spare stays: a container reserved close to its size never wrote it, so it
/// holds no memory, and the copy that shrinking makes would fault in all of
/// its pages once more (and hold both copies at once).
template <class... Containers>
void shrink_large_spares(Containers&... containers) {
  ((containers.capacity() - containers.size() > containers.size() / 4 ? containers.shrink_to_fit() : void()), ...);
}

/// This process's resident memory now, in bytes (/proc/self/statm).
std::uint64_t resident_bytes();

}  // namespace tdcone
