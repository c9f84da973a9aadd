#include "tdcone/core/release_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace tdcone {

void release_pages(const void* begin, const void* end) {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) & ~(page - 1);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) & ~(page - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace tdcone
