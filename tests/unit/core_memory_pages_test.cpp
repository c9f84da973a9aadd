#include "tdcone/core/memory_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

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

}  // namespace
