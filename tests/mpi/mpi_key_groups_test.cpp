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

// This rank's [begin, end) of `n` lines: blocks with an empty rank at 3 and 4
// ranks, and (for the 15 pairs below) a run of one key cut at 2 and 3 ranks.
std::pair<std::uint64_t, std::uint64_t> block(int rank, int ranks, std::uint64_t n) {
  std::vector<std::uint64_t> cuts;
  if (ranks == 1) cuts = {0, n};
  else if (ranks == 2) cuts = {0, 14, n};
  else if (ranks == 3) cuts = {0, 11, 11, n};
  else if (ranks == 4) cuts = {0, 3, 7, 7, n};
  else for (int r = 0; r <= ranks; ++r) cuts.push_back(n * r / ranks);
  return {std::min(cuts[rank], n), std::min(cuts[rank + 1], n)};
}

TEST(KeyGroups, FirstByPairIdAndSizeOfEverySharedKeyOnAnyRanks) {
  const boost::mpi::communicator comm;
  // Pair p has key all_keys[p]; pair 3 is a bad line (its key, 1, must not
  // join the group of 1, nor the run of pair 2). Pairs 10-12 and 13-14 are runs.
  const std::vector<std::uint64_t> all_keys = {1, 2, 1, 1, 3, 2, 1, 4, 5, 2, 6, 6, 6, 2, 2};
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
  // By hand: key 1 is pairs 0, 2, 6 (3 is bad); key 2 is pairs 1, 5, 9, 13,
  // 14 and in the reference; key 5 is pair 8 alone, in the reference; key 6
  // is pairs 10-12, outside it (there only on a bad line); keys 3 and 4 are
  // groups of one outside it: nothing to tell. Per pair:
  const std::vector<KeyGroup> all = {{0, 0, 3, 0},  {1, 1, 5, 1},   {2, 0, 3, 0},   {5, 1, 5, 1},
                                     {6, 0, 3, 0},  {8, 8, 1, 1},   {9, 1, 5, 1},   {10, 10, 3, 0},
                                     {11, 10, 3, 0}, {12, 10, 3, 0}, {13, 1, 5, 1}, {14, 1, 5, 1}};
  std::vector<KeyGroup> expected;
  for (const KeyGroup& g : all)
    if (g.pair_id >= begin && g.pair_id < end) expected.push_back(g);
  std::vector<KeyGroup> per_pair;  // the runs told, pair by pair
  for (const KeyGroup& run : found.groups) {
    for (std::uint64_t p = run.pair_id; p < run.pair_id + run.count; ++p) per_pair.push_back({p, run.first, run.size, run.in_other});
  }
  std::sort(per_pair.begin(), per_pair.end(), [](const KeyGroup& a, const KeyGroup& b) { return a.pair_id < b.pair_id; });
  EXPECT_EQ(per_pair, expected) << "rank " << comm.rank() << " of " << comm.size();
  EXPECT_EQ(found.later_copies, 8u);  // pairs 2, 6; 5, 9, 13, 14; 11, 12
  EXPECT_EQ(found.in_other, 6u);      // pairs 1, 5, 9, 13, 14 and 8
  if (comm.size() == 1) {  // one record a run: 10-12 and 13-14 are told once each
    EXPECT_EQ(found.groups.size(), expected.size() - 3);
  }
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
