#include "tdcone/core/memory_pages.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>
#include <thread>

namespace tdcone {

namespace {

// Blocks up to this size come from the heap, and this much free memory at its
// top stays mapped (larger blocks are mapped and unmapped on their own).
constexpr int kKeptHeapBytes = 1 << 30;

// What restart_with_huge_pages() adds to GLIBC_TUNABLES.
constexpr std::string_view kHugePagesTunable = "glibc.malloc.hugetlb=1";
constexpr int kFreePageReportingBit = 5;  // VIRTIO_BALLOON_F_REPORTING
constexpr int kHugePageOrder = 9;         // 2 MiB in 4 KiB pages
// Below this share of cheap memory a rank gains too little to start on small pages.
constexpr std::uint64_t kLeastCheapShare = std::uint64_t{64} << 20;

std::string file_text(const std::filesystem::path& path) {
  std::ifstream file(path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

bool host_takes_back_free_memory() {
  std::error_code error;
  for (const auto& device : std::filesystem::directory_iterator("/sys/bus/virtio/drivers/virtio_balloon", error))
    if (reports_free_pages(file_text(device.path() / "features"))) return true;
  return false;
}

bool heap_on_huge_pages() {
  const std::string mode = file_text("/sys/kernel/mm/transparent_hugepage/enabled");
  if (mode.find("[always]") != std::string::npos) return true;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return huge_pages_on_request(mode) && tunables != nullptr && std::string_view(tunables).find(kHugePagesTunable) != std::string_view::npos;
}

}  // namespace

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

void release_pages(const void* begin, const void* end) {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) & ~(page - 1);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) & ~(page - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

void keep_freed_heap_pages() {
  // The score engine frees and allocates blocks of the same sizes round after
  // round: the merged cells of the matrix's buckets, a round's messages. By
  // default glibc maps each block above a threshold (128 KiB, raised as such
  // blocks are freed) on its own and unmaps it when freed, and gives the
  // heap's free top back beyond another: every new block then faults in
  // fresh pages that the kernel zeroes (a third of a score run's page faults,
  // which cost the most where the kernel runs under a hypervisor). Kept in
  // the heap, a freed block's pages serve the next one.
  mallopt(M_MMAP_THRESHOLD, kKeptHeapBytes);
  mallopt(M_TRIM_THRESHOLD, kKeptHeapBytes);
}

bool reports_free_pages(std::string_view features) {
  return features.size() > kFreePageReportingBit && features[kFreePageReportingBit] == '1';
}

std::uint64_t free_bytes_in_small_blocks(std::string_view buddyinfo) {
  std::uint64_t pages = 0;
  std::istringstream lines{std::string(buddyinfo)};
  for (std::string line; std::getline(lines, line);) {
    // "Node 0, zone   Normal  <free blocks of order 0> <order 1> ..."
    std::istringstream fields(line);
    std::string node, node_id, zone, zone_name;
    fields >> node >> node_id >> zone >> zone_name;
    std::uint64_t blocks = 0;
    for (int order = 0; order < kHugePageOrder && fields >> blocks; ++order) pages += blocks << order;
  }
  return pages * 4096;
}

void small_pages_while_cheap(int ranks_on_node) {
  // Measured on such a guest (docs/performance.md, twenty-third round): 4 KiB
  // pages 0.6-0.9 ms a MiB while blocks under 2 MiB last, 3-5 beyond; fresh
  // 2 MiB pages 3.3-3.9. On 4 KiB pages throughout, a 2.8M-pair run took
  // 12-24 % less, a 28M-pair one, which outgrows the small blocks, 17-20 %
  // more; switching at the share, 13-15 % less and the same.
  if (RUNNING_ON_VALGRIND || !heap_on_huge_pages() || !host_takes_back_free_memory()) return;
  const std::uint64_t share =
      free_bytes_in_small_blocks(file_text("/proc/buddyinfo")) / static_cast<std::uint64_t>(std::max(ranks_on_node, 1));
  if (share < kLeastCheapShare || prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0) return;
  const std::uint64_t switch_at = resident_bytes() + share;
  // Watched, not hooked into the allocations: a read of /proc every 10 ms.
  try {
    std::thread([switch_at] {
      while (resident_bytes() < switch_at) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
    }).detach();
  } catch (const std::system_error&) {  // no thread to watch: huge pages from the start, as before
    prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
  }
}

std::optional<std::string> tunables_with_huge_pages(const char* tunables) {
  if (tunables == nullptr || *tunables == '\0') return std::string(kHugePagesTunable);
  if (std::strstr(tunables, "glibc.malloc.hugetlb=") != nullptr) return std::nullopt;
  return std::string(tunables) + ":" + std::string(kHugePagesTunable);
}

bool huge_pages_on_request(std::string_view mode) { return mode.find("[madvise]") != std::string_view::npos; }

void restart_with_huge_pages(char** argv) {
  // A score run touches most of its memory once: with 4 KiB pages, 112k page
  // faults at 700k pairs on 1 rank even with freed pages kept, and under a
  // hypervisor each costs microseconds. On 2 MiB pages, 3.4k (and with both,
  // the run took 27 % less than with neither). glibc
  // puts its heap on 2 MiB pages when asked (madvise) with a tunable, read at
  // start-up only: hence the restart, before anything else has started. Not
  // under valgrind, whose tool would not follow the restart. With the
  // kernel's "always" mode the heap has huge pages already; with "never" it
  // cannot have them.
  const std::string mode = file_text("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!huge_pages_on_request(mode) || RUNNING_ON_VALGRIND) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  // Set already by the restart (or by the user): at most one restart.
  const std::optional<std::string> with_huge_pages = tunables_with_huge_pages(tunables);
  if (!with_huge_pages) return;
  // The program's own path, not /proc/self/exe: the process is named after
  // the file it runs (ps, pgrep, top). A program deleted since it started
  // is not restarted.
  char program[4096];
  const ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
  if (length <= 0 || static_cast<std::size_t>(length) == sizeof program - 1) return;
  program[length] = '\0';
  const std::string before = tunables != nullptr ? tunables : "";
  setenv("GLIBC_TUNABLES", with_huge_pages->c_str(), 1);
  execv(program, argv);
  // The restart failed: on with 4 KiB pages, the environment as it was.
  if (tunables != nullptr)
    setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

}  // namespace tdcone
