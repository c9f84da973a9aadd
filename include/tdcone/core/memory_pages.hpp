#pragma once
// Which pages of memory the process holds: given back as a buffer is
// consumed, kept in the heap when freed, and huge where the kernel allows.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

/// Makes the heap keep the pages of the blocks freed in it (blocks up to
/// 1 GiB come from the heap, and up to 1 GiB of free memory stays at its top)
/// instead of unmapping them. Called once, at start-up.
void keep_freed_heap_pages();

/// Starts the program again (execv) with glibc's heap on transparent huge
/// pages, when the kernel gives them to memory that asks for them and
/// nothing chose otherwise; returns if it does not. Call it first in main(),
/// before MPI starts. `GLIBC_TUNABLES=glibc.malloc.hugetlb=0` keeps 4 KiB pages.
void restart_with_huge_pages(char** argv);

/// This process's resident memory now, in bytes (/proc/self/statm).
std::uint64_t resident_bytes();

/// On a virtual machine whose host takes back the guest's free memory (free
/// page reporting), starts this rank on 4 KiB pages and switches it to huge
/// pages once its resident memory passes its share of the node's free memory
/// in blocks under 2 MiB: the guest never reports those, so their pages come
/// at the cost of a fault, where every fresh huge page is one the host must
/// back again. Elsewhere, changes nothing. Call it once, after
/// restart_with_huge_pages(); `ranks_on_node` share the node's memory.
void small_pages_while_cheap(int ranks_on_node);

/// Whether a virtio-balloon device's `features` (the text of the file in
/// sysfs, a character '0' or '1' a feature bit) has free page reporting.
bool reports_free_pages(std::string_view features);

/// Bytes of free memory in blocks under 2 MiB, from the text of
/// /proc/buddyinfo (a count of free blocks per order, 4 KiB pages).
std::uint64_t free_bytes_in_small_blocks(std::string_view buddyinfo);

/// GLIBC_TUNABLES with huge pages for the heap added to `tunables` (the
/// current value, or null), or nothing when they set glibc.malloc.hugetlb already.
std::optional<std::string> tunables_with_huge_pages(const char* tunables);

/// Whether the kernel's transparent huge page mode (the text of
/// /sys/kernel/mm/transparent_hugepage/enabled) gives them only on request.
bool huge_pages_on_request(std::string_view mode);

}  // namespace tdcone
