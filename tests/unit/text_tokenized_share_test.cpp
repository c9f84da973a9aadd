// A rank's share of tokenized pairs (text/tokenized_share.hpp): the types
// of its sides, the input file of a pair, and the types the score engine
// gives back as it aligns them, counted by hand.
#include "tdcone/text/tokenized_share.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tdcone::text {
namespace {

// Pair 0: {1 2} -> {3}; pair 1: {4} -> {5 6}; pair 2 repeats pair 1's input
// (its side points at the same types) -> {7}.
TokenizedShare three_pairs() {
  TokenizedShare share;
  share.flags = {0, 0, 0};
  share.src_len = {2, 1, 1};
  share.tgt_len = {1, 2, 1};
  share.types = {1, 2, 3, 4, 5, 6, 7};
  share.type_start = {0, 2, 3, 4, 3, 6};
  share.type_count = {2, 1, 1, 2, 1, 1};
  share.total_lines = 3;
  return share;
}

TEST(TokenizedShare, SideTypesCountEachSideAsOftenAsItIsASide) {
  const TokenizedShare share = three_pairs();
  EXPECT_EQ(share.side_types(), 8u);  // pair 1's input twice
  EXPECT_EQ(share.src_types(2).size(), 1u);
  EXPECT_EQ(share.src_types(2)[0], 4u);
  EXPECT_EQ(std::vector<WordId>(share.tgt_types(1).begin(), share.tgt_types(1).end()), (std::vector<WordId>{5, 6}));
}

TEST(TokenizedShare, FileOfFollowsTheSegmentsRead) {
  TokenizedShare share;
  share.flags.assign(10, 0);
  share.file_starts = {{0, 0}, {4, 1}, {4, 2}, {7, 3}};
  EXPECT_EQ(share.file_of(0), 0u);
  EXPECT_EQ(share.file_of(3), 0u);
  EXPECT_EQ(share.file_of(4), 2u);  // file 1 had no pair on this rank
  EXPECT_EQ(share.file_of(9), 3u);
}

TEST(TokenizedShare, ReleasingAlignedPairsKeepsTheOthersIntact) {
  TokenizedShare share;
  constexpr std::size_t kPairs = 100000;  // 8 MB of types: many whole pages
  for (std::size_t i = 0; i < kPairs; ++i) {
    share.flags.push_back(0);
    for (int side = 0; side < 2; ++side) {
      share.type_start.push_back(share.types.size());
      share.type_count.push_back(5);
      for (WordId w = 0; w < 5; ++w) share.types.push_back(static_cast<WordId>(i % 1000 + side * 10 + w));
    }
  }
  EXPECT_EQ(share.released_bytes(), 0u);
  share.release_types_before(kPairs / 2);
  share.release_types_before(kPairs / 4);  // already released: nothing more
  share.release_types_before(3 * kPairs / 4);
  // Per pair 10 types of 4 bytes, two 8-byte starts and two 4-byte counts: what the budget no longer counts.
  EXPECT_EQ(share.released_bytes(), 3 * kPairs / 4 * (10 * 4 + 2 * 8 + 2 * 4));
  for (std::size_t i = 3 * kPairs / 4; i < kPairs; ++i) {
    const auto x = share.src_types(i), y = share.tgt_types(i);
    ASSERT_EQ(x.size(), 5u) << i;
    ASSERT_EQ(y.size(), 5u) << i;
    ASSERT_EQ(x[0], i % 1000) << i;
    ASSERT_EQ(y[4], i % 1000 + 14) << i;
  }
}

// Released: the types before the first one a later pair still reads (4 bytes
// each), and the start (8 bytes) and count (4 bytes) of both sides of each pair.
TEST(TokenizedShare, ReleasedTypesAreCountedOnceAndARepeatedSideStays) {
  TokenizedShare share = three_pairs();
  EXPECT_FALSE(share.types_released());
  share.release_types_before(1);
  EXPECT_TRUE(share.types_released());
  EXPECT_EQ(share.released_bytes(), 3 * 4 + 2 * 12u);  // types 1 2 3
  share.release_types_before(2);  // pair 2 reads type 4: no type goes
  EXPECT_EQ(share.released_bytes(), 36 + 2 * 12u);
  EXPECT_EQ(share.src_types(2)[0], 4u);
  share.release_types_before(2);  // nothing more
  EXPECT_EQ(share.released_bytes(), 60u);
  share.release_types_before(3);  // the rest: types 4 5 6 7
  EXPECT_EQ(share.released_bytes(), 60 + 4 * 4 + 2 * 12u);
}

TEST(TokenizedShare, TypeCountsAreReleasedWithTheirTypes) {
  TokenizedShare share = three_pairs();
  share.type_counts.assign(share.types.size(), 1);
  share.release_types_before(3);
  EXPECT_EQ(share.released_bytes(), 7 * (4 + 4) + 3 * 2 * 12u);
}

TEST(TokenizedShare, ReleasingNoPairStillMarksTheRun) {
  TokenizedShare empty;
  empty.release_types_before(0);
  EXPECT_TRUE(empty.types_released());
  EXPECT_EQ(empty.released_bytes(), 0u);
}

}  // namespace
}  // namespace tdcone::text
