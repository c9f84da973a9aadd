#include "tdcone/core/memory_pages.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace tdcone {

namespace {

// Blocks up to this size come from the heap, and this much free memory at its
// top stays mapped (larger blocks are mapped and unmapped on their own).
constexpr int kKeptHeapBytes = 1 << 30;

}  // namespace

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

void release_free_heap_pages() { malloc_trim(0); }

std::optional<std::string> tunables_with_huge_pages(const char* tunables) {
  constexpr std::string_view kHugePages = "glibc.malloc.hugetlb=1";
  if (tunables == nullptr || *tunables == '\0') return std::string(kHugePages);
  if (std::strstr(tunables, "glibc.malloc.hugetlb=") != nullptr) return std::nullopt;
  return std::string(tunables) + ":" + std::string(kHugePages);
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
  std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
  const std::string mode((std::istreambuf_iterator<char>(mode_file)), std::istreambuf_iterator<char>());
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
