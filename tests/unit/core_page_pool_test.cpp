// Blocks from memory given to a pool, and from the heap when it runs out
// (core/page_pool.hpp): best fit, free runs that join, nothing lost.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tdcone/core/page_pool.hpp"

namespace tdcone {
namespace {

std::uintptr_t at(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(PagePoolTest, BlocksComeFromTheGivenMemoryBestFitFirst) {
  // Two runs a line apart (runs that touch would join: two arrays of their
  // own may lie end to end).
  constexpr std::size_t kSmall = 4096, kLarge = 65536;
  alignas(64) static unsigned char memory[kSmall + 64 + kLarge];
  unsigned char* const small = memory;
  unsigned char* const large = memory + kSmall + 64;
  PagePool pool;
  pool.donate(large, large + kLarge);
  pool.donate(small + 10, small + kSmall);  // its first line is not whole: left out
  EXPECT_EQ(pool.donated_bytes(), kLarge + kSmall - 64);
  EXPECT_EQ(pool.free_bytes(), pool.donated_bytes());

  void* a = pool.allocate(1000);  // the smaller run holds it
  EXPECT_EQ(at(a), at(small + 64));
  void* b = pool.allocate(5000);  // only the larger does
  EXPECT_EQ(at(b), at(large));
  EXPECT_EQ(pool.free_bytes(), pool.donated_bytes() - PagePool::block_size(1000) - PagePool::block_size(5000));
  std::memset(a, 1, 1000);
  std::memset(b, 2, 5000);

  pool.shrink(b, 5000, 100);  // its tail joins the free run after it
  void* c = pool.allocate(4000);
  EXPECT_EQ(at(c), at(large) + PagePool::block_size(100));
  pool.free(c, 4000);
  pool.free(b, 100);
  pool.free(a, 1000);
  EXPECT_EQ(pool.free_bytes(), pool.donated_bytes());
  EXPECT_EQ(at(pool.allocate(kLarge)), at(large)) << "the runs freed joined into one again";
}

TEST(PagePoolTest, ABlockLargerThanAnyFreeRunComesFromANewChunkOfTheHeap) {
  alignas(64) static unsigned char given[8192];
  PagePool pool;
  pool.donate(given, given + sizeof given);
  void* large = pool.allocate(3 * PagePool::kChunkBytes);
  EXPECT_TRUE(at(large) < at(given) || at(large) >= at(given + sizeof given));
  EXPECT_EQ(at(large) % 64, 0u);
  std::memset(large, 3, 3 * PagePool::kChunkBytes);  // all of it writable (ASan checks)
  void* small = pool.allocate(100);  // the given memory is still the best fit
  EXPECT_EQ(at(small), at(given));
  void* next = pool.allocate(PagePool::kChunkBytes / 2);  // a new chunk, whose rest is kept for the next blocks
  std::memset(next, 4, PagePool::kChunkBytes / 2);
  void* after = pool.allocate(PagePool::kChunkBytes / 4);
  EXPECT_EQ(at(after), at(next) + PagePool::kChunkBytes / 2);
  pool.free(after, PagePool::kChunkBytes / 4);
  pool.free(large, 3 * PagePool::kChunkBytes);
  pool.free(small, 100);
  pool.free(next, PagePool::kChunkBytes / 2);
}

TEST(PagePoolTest, RandomBlocksNeverOverlapAndAllComeBack) {
  std::vector<unsigned char> given(1 << 20);
  PagePool pool;
  pool.donate(given.data(), given.data() + given.size());
  const std::uint64_t donated = pool.donated_bytes();
  std::mt19937 rng(11);
  struct Held {
    unsigned char* block;
    std::size_t bytes;
    unsigned char mark;
  };
  std::vector<Held> held;
  std::uint64_t chunk_bytes = 0;  // free memory the pool took from the heap
  for (int step = 0; step < 4000; ++step) {
    if (held.empty() || rng() % 3 != 0) {
      const std::size_t bytes = 1 + rng() % 40000;
      const std::uint64_t free_before = pool.free_bytes();
      auto* block = static_cast<unsigned char*>(pool.allocate(bytes));
      if (pool.free_bytes() + PagePool::block_size(bytes) > free_before)
        chunk_bytes += pool.free_bytes() + PagePool::block_size(bytes) - free_before;
      const auto mark = static_cast<unsigned char>(step);
      std::memset(block, mark, bytes);
      held.push_back({block, bytes, mark});
    } else {
      const std::size_t k = rng() % held.size();
      Held& h = held[k];
      for (std::size_t i = 0; i < h.bytes; ++i) ASSERT_EQ(h.block[i], h.mark) << "a block was overwritten";
      if (rng() % 2 == 0) {
        pool.free(h.block, h.bytes);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        const std::size_t bytes = h.bytes;
        h.bytes = 1 + bytes / 2;
        pool.shrink(h.block, bytes, h.bytes);
      }
    }
  }
  for (const Held& h : held) pool.free(h.block, h.bytes);
  EXPECT_EQ(pool.free_bytes(), donated + chunk_bytes) << "every byte given or taken is free again";
}

TEST(PagePoolTest, ReleasedFreePagesReadAsZerosAndStayFree) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* mapped = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  auto* bytes = static_cast<unsigned char*>(mapped);
  std::memset(bytes, 7, 4 * page);
  {
    PagePool pool;
    pool.donate(bytes, bytes + 4 * page);
    auto* kept = static_cast<unsigned char*>(pool.allocate(page));  // the first page stays in use
    pool.release_free();
    EXPECT_EQ(kept[page - 1], 7);
    EXPECT_EQ(bytes[page], 0);
    EXPECT_EQ(bytes[4 * page - 1], 0);
    EXPECT_EQ(pool.free_bytes(), 3 * page);
    pool.free(kept, page);
  }
  munmap(mapped, 4 * page);
}

}  // namespace
}  // namespace tdcone
