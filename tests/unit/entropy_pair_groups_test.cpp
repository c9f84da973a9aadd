// Pair groups (entropy/pair_groups.hpp): which subsets each pair counts in:
// the corpus, shards, thresholds of a score, and two groupings at once.
#include "tdcone/entropy/pair_groups.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <vector>

#include "tdcone/core/error.hpp"

namespace tdcone::entropy {
namespace {

namespace bmpi = boost::mpi;

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
}

// `n` pairs with scores 0, 0.1, 0.2, ...; pair 2 a bad line.
text::TokenizedShare share_of(std::size_t n) {
  text::TokenizedShare share;
  share.total_lines = n;
  for (std::size_t i = 0; i < n; ++i) {
    share.flags.push_back(i == 2 ? schema::bad_line : 0);
    share.scores.push_back(0.1 * static_cast<double>(i));
  }
  share.file_starts = {{0, 0}, {n / 2, 1}};
  return share;
}

TEST(PairGroups, TheCorpusIsGroupZeroWithoutBadLines) {
  const PairGroups groups = corpus_groups(share_of(4));
  EXPECT_EQ(groups.group_of_pair, (std::vector<std::uint32_t>{0, 0, kNoGroup, 0}));
  EXPECT_EQ(groups.subsets_of_group, (std::vector<std::vector<std::uint32_t>>{{0}}));
  EXPECT_EQ(groups.subset_count, 1u);
}

TEST(PairGroups, ShardsByBlockFileAndHash) {
  const text::TokenizedShare share = share_of(8);
  EXPECT_EQ(assign_shards(share, 4, ShardBy::block, 0), (std::vector<std::uint32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(assign_shards(share, 2, ShardBy::file, 0), (std::vector<std::uint32_t>{0, 0, 0, 0, 1, 1, 1, 1}));
  const std::vector<std::uint32_t> hashed = assign_shards(share, 3, ShardBy::hash, 7);
  EXPECT_TRUE(std::all_of(hashed.begin(), hashed.end(), [](std::uint32_t s) { return s < 3; }));
  EXPECT_EQ(assign_shards(share, 3, ShardBy::hash, 7), hashed);  // the same seed, the same shards
  EXPECT_THROW(assign_shards(share, 0, ShardBy::hash, 7), UsageError);

  const PairGroups groups = shard_groups(share, assign_shards(share, 4, ShardBy::block, 0), 4);
  EXPECT_EQ(groups.subset_count, 5u);
  EXPECT_EQ(groups.group_of_pair[2], kNoGroup);
  EXPECT_EQ(groups.group_of_pair[5], 2u);
  EXPECT_EQ(groups.subsets_of_group[2], (std::vector<std::uint32_t>{0, 3}));
}

TEST(PairGroups, ThresholdSubsetsHoldThePairsScoringAtLeastT) {
  const ThresholdGroups t = threshold_groups(self(), share_of(6), {0.25, 0.45}, 0, 1);
  EXPECT_EQ(t.subset_size, (std::vector<std::uint64_t>{3, 1}));  // scores 0.3, 0.4, 0.5; 0.5
  EXPECT_EQ(t.mask_of_pair, (std::vector<std::uint64_t>{0, 0, 0, 1, 1, 3}));
  EXPECT_EQ(t.groups.subset_count, 3u);
  // Groups: the distinct masks in sorted order (0, 1, 3).
  EXPECT_EQ(t.groups.subsets_of_group, (std::vector<std::vector<std::uint32_t>>{{0}, {0, 1}, {0, 1, 2}}));
  EXPECT_EQ(t.groups.group_of_pair, (std::vector<std::uint32_t>{0, 0, kNoGroup, 1, 1, 2}));
}

TEST(PairGroups, ASampleKeepsThatManyPairsOfEachSubset) {
  const ThresholdGroups t = threshold_groups(self(), share_of(40), {0.0, 2.0}, 5, 3);
  EXPECT_EQ(t.subset_size, (std::vector<std::uint64_t>{39, 20}));  // before sampling
  std::vector<std::uint64_t> kept(2, 0);
  for (std::uint64_t mask : t.mask_of_pair)
    for (int b = 0; b < 2; ++b) kept[b] += mask >> b & 1u;
  EXPECT_EQ(kept, (std::vector<std::uint64_t>{5, 5}));
}

TEST(PairGroups, ThresholdsNeedAScoreAndAtMost64) {
  text::TokenizedShare unscored = share_of(3);
  unscored.scores.clear();
  EXPECT_THROW(threshold_groups(self(), unscored, {0.5}, 0, 1), UsageError);
  EXPECT_THROW(threshold_groups(self(), share_of(3), {}, 0, 1), UsageError);
}

TEST(PairGroups, CombinedGroupsArePairsOfGroups) {
  const text::TokenizedShare share = share_of(8);
  const PairGroups a = shard_groups(share, assign_shards(share, 2, ShardBy::block, 0), 2);
  const PairGroups b = shard_groups(share, assign_shards(share, 2, ShardBy::file, 0), 2);
  const PairGroups both = combine_groups(self(), a, b);
  EXPECT_EQ(both.subset_count, a.subset_count + b.subset_count - 1);
  ASSERT_EQ(both.group_of_pair.size(), share.size());
  EXPECT_EQ(both.group_of_pair[2], kNoGroup);
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (i == 2) continue;
    const auto& subsets = both.subsets_of_group[both.group_of_pair[i]];
    EXPECT_EQ(subsets, (std::vector<std::uint32_t>{0, 1 + a.group_of_pair[i], 3 + b.group_of_pair[i]})) << "pair " << i;
  }
}

}  // namespace
}  // namespace tdcone::entropy
