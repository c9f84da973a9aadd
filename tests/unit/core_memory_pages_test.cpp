#include "tdcone/core/memory_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <string>
#include <vector>

namespace {

// AddressSanitizer brings its own allocator, which glibc's options do not reach.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kGlibcHeap = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kGlibcHeap = false;
#else
constexpr bool kGlibcHeap = true;
#endif
#else
constexpr bool kGlibcHeap = true;
#endif

std::uint64_t resident_bytes() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  unsigned long long total = 0, resident = 0;
  EXPECT_EQ(std::fscanf(statm, "%llu %llu", &total, &resident), 2);
  std::fclose(statm);
  return resident * 4096;
}

// How much less is resident now than `before`. Signed: the process's other
// threads (Open MPI's) may grow it meanwhile.
std::int64_t dropped_since(std::uint64_t before) {
  return static_cast<std::int64_t>(before) - static_cast<std::int64_t>(resident_bytes());
}

TEST(ReleasePages, ConsumedPrefixLeavesResidentMemoryAndTheRestIsKept) {
  constexpr std::size_t kWords = std::size_t{64} << 20 >> 2;  // 64 MiB
  std::vector<std::uint32_t> buffer(kWords, 7);
  const std::uint64_t before = resident_bytes();
  tdcone::release_pages(buffer.data() + 5, buffer.data() + kWords / 2);
  EXPECT_GT(dropped_since(before), std::int64_t{30} << 20) << "half of 64 MiB should go";
  EXPECT_EQ(buffer[0], 7u);  // the partial first page stays
  EXPECT_EQ(buffer[4], 7u);
  for (std::size_t i = kWords / 2; i < kWords; i += 997) ASSERT_EQ(buffer[i], 7u) << i;
  EXPECT_EQ(buffer[kWords - 1], 7u);
}

TEST(ReleasePages, LessThanAPageOrAnEmptyRangeChangesNothing) {
  std::vector<std::uint32_t> buffer(4096, 3);
  tdcone::release_pages(buffer.data() + 10, buffer.data() + 20);
  tdcone::release_pages(buffer.data() + 100, buffer.data() + 100);
  tdcone::release_pages(buffer.data() + 200, buffer.data() + 100);
  for (std::uint32_t v : buffer) ASSERT_EQ(v, 3u);
}

TEST(KeepFreedHeapPages, ABlockOfMegabytesComesFromTheHeapAndItsPagesStayWhenFreed) {
  if (!kGlibcHeap) GTEST_SKIP() << "not glibc's heap under AddressSanitizer";
  tdcone::keep_freed_heap_pages();
  constexpr std::size_t kBytes = std::size_t{48} << 20;  // above glibc's own thresholds (128 KiB, at most 32 MiB)
  const std::size_t mapped_before = mallinfo2().hblkhd;
  void* block = std::malloc(kBytes);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(mallinfo2().hblkhd, mapped_before) << "mapped on its own, not from the heap";
  const std::size_t heap_with_block = mallinfo2().arena;
  std::free(block);
  EXPECT_EQ(mallinfo2().arena, heap_with_block) << "the heap gave its top back";
}

TEST(KeepFreedHeapPages, TheFreedPagesStayResident) {
  if (!kGlibcHeap) GTEST_SKIP() << "not glibc's heap under AddressSanitizer";
  tdcone::keep_freed_heap_pages();
  constexpr std::size_t kBytes = std::size_t{48} << 20;
  auto* block = static_cast<unsigned char*>(std::malloc(kBytes));
  ASSERT_NE(block, nullptr);
  for (std::size_t i = 0; i < kBytes; i += 4096) block[i] = 1;
  const std::uint64_t touched = resident_bytes();
  std::free(block);
  EXPECT_LT(dropped_since(touched), std::int64_t{8} << 20) << "the heap gave the block's pages back when freed";
}

TEST(HugePages, TheTunableIsAddedOnceAndAChoiceIsKept) {
  EXPECT_EQ(tdcone::tunables_with_huge_pages(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(tdcone::tunables_with_huge_pages(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(tdcone::tunables_with_huge_pages("glibc.malloc.check=0"), "glibc.malloc.check=0:glibc.malloc.hugetlb=1");
  // The restart's own value, or the user's choice either way: no further restart.
  EXPECT_EQ(tdcone::tunables_with_huge_pages("glibc.malloc.hugetlb=1"), std::nullopt);
  EXPECT_EQ(tdcone::tunables_with_huge_pages("glibc.malloc.check=0:glibc.malloc.hugetlb=0"), std::nullopt);
}

TEST(HugePages, OnlyTheMadviseModeAsksForThem) {
  EXPECT_TRUE(tdcone::huge_pages_on_request("always [madvise] never\n"));
  EXPECT_FALSE(tdcone::huge_pages_on_request("[always] madvise never\n"));
  EXPECT_FALSE(tdcone::huge_pages_on_request("always madvise [never]\n"));
  EXPECT_FALSE(tdcone::huge_pages_on_request(""));  // no such file
}

TEST(SmallPagesWhileCheap, FreePageReportingIsFeatureBitFive) {
  // A balloon device of a Firecracker guest, with free page reporting.
  EXPECT_TRUE(tdcone::reports_free_pages(
      "0110010100000000000000000000000010000000000000000000000000000000\n"));
  // Stats and deflate-on-OOM only (bits 1 and 2): the host takes nothing back on its own.
  EXPECT_FALSE(tdcone::reports_free_pages("0110000000000000000000000000000010000000\n"));
  EXPECT_FALSE(tdcone::reports_free_pages("01100"));  // too short to say
  EXPECT_FALSE(tdcone::reports_free_pages(""));       // no such file
}

TEST(SmallPagesWhileCheap, FreeMemoryInBlocksUnderTwoMebibytesIsCountedOverZones) {
  // Orders 0..10: a block of order k is 2^k pages of 4 KiB; orders 9 and 10 (2 and 4 MiB) are left out.
  const std::string buddyinfo =
      "Node 0, zone      DMA      1      0      0      0      0      0      0      0      1      1      3 \n"
      "Node 0, zone    DMA32      2      2      0      0      0      0      0      0      0      2    752 \n"
      "Node 0, zone   Normal      3      1      1      0      0      0      0      0      0    338    323 \n";
  const std::uint64_t pages = (1 + 256) + (2 + 2 * 2) + (3 + 1 * 2 + 1 * 4);
  EXPECT_EQ(tdcone::free_bytes_in_small_blocks(buddyinfo), pages * 4096);
  EXPECT_EQ(tdcone::free_bytes_in_small_blocks(""), 0u);
  EXPECT_EQ(tdcone::free_bytes_in_small_blocks("Node 0, zone Normal\n"), 0u);  // a zone without counts
}

}  // namespace
