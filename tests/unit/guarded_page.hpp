#pragma once
// A page whose next page is unreadable: text placed at its end shows whether
// code reads past it (such a read stops the test with SIGSEGV).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <stdexcept>

namespace tdcone::test_support {

class GuardedPage {
 public:
  GuardedPage() : size_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    void* pages = mmap(nullptr, 2 * size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) throw std::runtime_error("mmap failed");
    page_ = static_cast<char*>(pages);
    if (mprotect(page_ + size_, size_, PROT_NONE) != 0) throw std::runtime_error("mprotect failed");
  }
  ~GuardedPage() { munmap(page_, 2 * size_); }
  GuardedPage(const GuardedPage&) = delete;
  GuardedPage& operator=(const GuardedPage&) = delete;

  /// The place `bytes` before the end of the readable page.
  char* before_end(std::size_t bytes) const { return page_ + size_ - bytes; }

 private:
  std::size_t size_;
  char* page_;
};

}  // namespace tdcone::test_support
