// Replicate samples (entropy/replicate_sample.hpp): the documented hash, the
// sizes, nesting, and the grouping a replicate's scoring needs.
#include "tdcone/entropy/replicate_sample.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <xxhash.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <vector>

#include "tdcone/entropy/pair_groups.hpp"

namespace tdcone::entropy {
namespace {

namespace bmpi = boost::mpi;

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
}

// `n` pairs, pair 2 a bad line, in two shards by block.
text::TokenizedShare share_of(std::size_t n) {
  text::TokenizedShare share;
  share.total_lines = n;
  for (std::size_t i = 0; i < n; ++i) share.flags.push_back(i == 2 ? schema::bad_line : 0);
  return share;
}

// The pairs of `members` with the n smallest documented keys, computed here
// from the hash's definition alone.
std::vector<std::size_t> smallest_keys(const std::vector<std::size_t>& members, std::size_t n, std::uint64_t seed) {
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
  for (std::size_t pair_id : members) {
    const std::uint64_t id = pair_id;
    keyed.emplace_back(XXH3_64bits_withSeed(&id, 8, seed), pair_id);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> chosen;
  for (std::size_t k = 0; k < std::min(n, keyed.size()); ++k) chosen.push_back(keyed[k].second);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

TEST(ReplicateSeed, ReplicateZeroIsTheSeedItself) {
  EXPECT_EQ(replicate_seed(5, 0), 5u);
  EXPECT_EQ(replicate_seed(5, 2), 5u + 2 * 0x9E3779B97F4A7C15ull);
  EXPECT_EQ(replicate_seed(~std::uint64_t{0}, 1), 0x9E3779B97F4A7C14ull);  // mod 2^64
  const std::uint64_t id = 42;
  EXPECT_EQ(sample_key(42, 7) >> 64, XXH3_64bits_withSeed(&id, 8, 7));
  EXPECT_EQ(static_cast<std::uint64_t>(sample_key(42, 7)), 42u);
}

TEST(ReplicateSample, EverySubsetGetsTheSmallestKeysOfItsOwnPairs) {
  const text::TokenizedShare share = share_of(40);
  const PairGroups full = shard_groups(share, assign_shards(share, 2, ShardBy::block, 0), 2);
  for (std::uint32_t r : {0u, 3u}) {
    const ReplicateSample drawn = replicate_sample(self(), share, full, {true, true, true}, 6, 11, r);
    std::vector<std::vector<std::size_t>> in_subset(3);
    for (std::size_t i = 0; i < 40; ++i)
      if (drawn.groups.group_of_pair[i] != kNoGroup)
        for (std::uint32_t s : drawn.groups.subsets_of_group[drawn.groups.group_of_pair[i]]) in_subset[s].push_back(i);
    std::vector<std::size_t> all, first, second;
    for (std::size_t i = 0; i < 40; ++i)
      if (i != 2) (i < 20 ? first : second).push_back(i), all.push_back(i);
    const std::uint64_t seed = replicate_seed(11, r);
    EXPECT_EQ(in_subset[0], smallest_keys(all, 6, seed)) << "replicate " << r;
    EXPECT_EQ(in_subset[1], smallest_keys(first, 6, seed));
    EXPECT_EQ(in_subset[2], smallest_keys(second, 6, seed));
    EXPECT_EQ(drawn.sampled, (std::vector<std::uint64_t>{6, 6, 6}));
    for (std::size_t i : drawn.pairs) EXPECT_NE(drawn.groups.group_of_pair[i], kNoGroup);
  }
}

TEST(ReplicateSample, ASmallSubsetIsTakenWholeAndAnUnsampledOneLeftOut) {
  const text::TokenizedShare share = share_of(10);
  const PairGroups full = shard_groups(share, assign_shards(share, 2, ShardBy::block, 0), 2);
  const ReplicateSample drawn = replicate_sample(self(), share, full, {false, true, true}, 100, 1, 1);
  EXPECT_EQ(drawn.sampled, (std::vector<std::uint64_t>{0, 4, 5}));  // shard 0 lost its bad line
  EXPECT_EQ(drawn.pairs.size(), 9u);
  for (const auto& subsets : drawn.groups.subsets_of_group)
    EXPECT_TRUE(std::find(subsets.begin(), subsets.end(), 0u) == subsets.end()) << "the corpus was not sampled";
}

TEST(ReplicateSample, ReplicateZeroOfAThresholdIsTheSweepsSample) {
  text::TokenizedShare share = share_of(50);
  for (std::size_t i = 0; i < 50; ++i) share.scores.push_back(0.02 * static_cast<double>(i));
  const ThresholdGroups sampled = threshold_groups(self(), share, {0.3, 0.6}, 7, 9);
  const ThresholdGroups whole = threshold_groups(self(), share, {0.3, 0.6}, 0, 9);
  const ReplicateSample drawn = replicate_sample(self(), share, whole.groups, {false, true, true}, 7, 9, 0);
  for (std::size_t i = 0; i < 50; ++i) {
    std::uint64_t mask = 0;
    if (drawn.groups.group_of_pair[i] != kNoGroup)
      for (std::uint32_t s : drawn.groups.subsets_of_group[drawn.groups.group_of_pair[i]]) mask |= std::uint64_t{1} << (s - 1);
    EXPECT_EQ(mask, sampled.mask_of_pair[i]) << "pair " << i;
  }
}

TEST(SubsetSizes, CountEveryGroupInEachOfItsSubsets) {
  const text::TokenizedShare share = share_of(10);
  const PairGroups full = shard_groups(share, assign_shards(share, 2, ShardBy::block, 0), 2);
  EXPECT_EQ(subset_sizes(self(), full), (std::vector<std::uint64_t>{9, 4, 5}));
}

}  // namespace
}  // namespace tdcone::entropy
