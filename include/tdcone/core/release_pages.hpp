#pragma once
// Giving back the memory of a large buffer as it is consumed, front to back.
namespace tdcone {

/// Returns to the operating system the whole pages between `begin` and `end`,
/// bytes the caller will never read again (they read as zeros after; the
/// buffer stays allocated and is freed as usual). A buffer read once from the
/// front, such as the word types the score engine aligns, then stops counting
/// in the resident memory as it goes, without a copy: what grows meanwhile
/// (the alignment matrix) takes its place. Advisory: on failure nothing changes.
void release_pages(const void* begin, const void* end);

}  // namespace tdcone
