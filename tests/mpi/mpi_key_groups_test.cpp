// Pairs grouped by key over the ranks (mpi/key_groups.hpp): the first pair
// by pair_id and the group size reach every pair of a shared key, on its home
// rank, whatever the number of ranks and wherever the rank boundaries fall.
#include "tdcone/mpi/key_groups.hpp"

#include <gtest/gtest.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tdcone/schema/pair_flags.hpp"

namespace tdcone::mpi {
namespace {

text::DedupKey key(std::uint64_t n) { return {n * 0x9E3779B97F4A7C15ull, n}; }

// This rank's [begin, end) of `n` lines: blocks with an empty rank at 3 and 4 ranks.
std::pair<std::uint64_t, std::uint64_t> block(int rank, int ranks, std::uint64_t n) {
  std::vector<std::uint64_t> cuts;
  if (ranks == 1) cuts = {0, n};
  else if (ranks == 2) cuts = {0, 5, n};
  else if (ranks == 3) cuts = {0, 2, 2, n};
  else if (ranks == 4) cuts = {0, 3, 7, 7, n};
  else for (int r = 0; r <= ranks; ++r) cuts.push_back(n * r / ranks);
  return {std::min(cuts[rank], n), std::min(cuts[rank + 1], n)};
}

TEST(KeyGroups, FirstByPairIdAndSizeOfEverySharedKeyOnAnyRanks) {
  const boost::mpi::communicator comm;
  // Pair p has key all_keys[p]; pair 3 is a bad line (its key, 1, must not join the group of 1).
  const std::vector<std::uint64_t> all_keys = {1, 2, 1, 1, 3, 2, 1, 4, 5, 2, 6};
  const std::vector<std::uint64_t> reference_keys = {5, 2, 7, 6};  // reference line 3 (key 6) is bad
  const auto [begin, end] = block(comm.rank(), comm.size(), all_keys.size());
  std::vector<text::DedupKey> keys;
  std::vector<std::uint8_t> flags;
  for (std::uint64_t p = begin; p < end; ++p) {
    keys.push_back(key(all_keys[p]));
    flags.push_back(p == 3 ? schema::bad_line : 0);
  }
  const auto [ref_begin, ref_end] = block(comm.size() - 1 - comm.rank(), comm.size(), reference_keys.size());
  std::vector<text::DedupKey> other;
  std::vector<std::uint8_t> other_flags;
  for (std::uint64_t p = ref_begin; p < ref_end; ++p) {
    other.push_back(key(reference_keys[p]));
    other_flags.push_back(p == 3 ? schema::bad_line : 0);
  }
  KeyGroups found = group_keys(comm, begin, keys, flags, other, other_flags);
  // By hand: key 1 is pairs 0, 2, 6 (3 is bad); key 2 is pairs 1, 5, 9 and in the
  // reference; key 5 is pair 8 alone, in the reference; keys 3, 4 and 6 are
  // groups of one outside it (6 only on a bad reference line): nothing to tell.
  const std::vector<KeyGroup> all = {{0, 0, 3, 0}, {1, 1, 3, 1}, {2, 0, 3, 0}, {5, 1, 3, 1},
                                     {6, 0, 3, 0}, {8, 8, 1, 1}, {9, 1, 3, 1}};
  std::vector<KeyGroup> expected;
  for (const KeyGroup& g : all)
    if (g.pair_id >= begin && g.pair_id < end) expected.push_back(g);
  std::sort(found.groups.begin(), found.groups.end(),
            [](const KeyGroup& a, const KeyGroup& b) { return a.pair_id < b.pair_id; });
  EXPECT_EQ(found.groups, expected) << "rank " << comm.rank() << " of " << comm.size();
  EXPECT_EQ(found.later_copies, 4u);  // pairs 2, 6 and 5, 9
  EXPECT_EQ(found.in_other, 4u);      // pairs 1, 5, 9 and 8
}

TEST(KeyGroups, NoKeysNoGroups) {
  const boost::mpi::communicator comm;
  const KeyGroups found = group_keys(comm, 0, {}, {});
  EXPECT_TRUE(found.groups.empty());
  EXPECT_EQ(found.later_copies, 0u);
  EXPECT_EQ(found.in_other, 0u);
}

}  // namespace
}  // namespace tdcone::mpi
