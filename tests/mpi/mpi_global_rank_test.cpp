// Ranking items spread over the ranks (mpi/global_rank.hpp): every rank's
// items get the position a sort of all items on one rank gives them, at any
// number of ranks and whatever each rank holds (none, one, most).
#include "tdcone/mpi/global_rank.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace tdcone::mpi {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// All items' keys: ties, NaNs and negative keys among them.
std::vector<double> all_keys(std::size_t n) {
  std::vector<double> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = i % 7 == 3 ? kNaN : static_cast<double>((i * 37) % 11) - 4.0;
  return keys;
}

// The expected 1-based positions: key ascending, NaN last, ties by id.
std::vector<std::uint64_t> sorted_positions(const std::vector<double>& keys) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const bool nan_a = std::isnan(keys[a]), nan_b = std::isnan(keys[b]);
    if (nan_a != nan_b) return nan_b;
    if (!nan_a && keys[a] != keys[b]) return keys[a] < keys[b];
    return a < b;
  });
  std::vector<std::uint64_t> position(keys.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = k + 1;
  return position;
}

struct Slice {
  std::size_t first, size;
};

// Rank r's items: uneven slices, rank 0 holding none when there are several ranks.
Slice slice_of(std::size_t n, int rank, int ranks) {
  std::vector<std::size_t> ends(ranks + 1, 0);
  for (int r = 1; r <= ranks; ++r) ends[r] = ranks == 1 ? n : std::min(n, ends[r - 1] + (r == 1 ? 0 : n * r / 4 + 1));
  ends[ranks] = n;
  return {ends[rank], ends[rank + 1] - ends[rank]};
}

TEST(GlobalRanks, AgreeWithASortOfAllItems) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  for (std::size_t n : {0u, 1u, 5u, 200u}) {
    const std::vector<double> keys = all_keys(n);
    const std::vector<std::uint64_t> expected = sorted_positions(keys);
    const Slice mine = slice_of(n, rank, ranks);
    const std::vector<double> local(keys.begin() + mine.first, keys.begin() + mine.first + mine.size);
    const std::vector<std::uint64_t> got = global_ranks(MPI_COMM_WORLD, local, mine.first);
    EXPECT_EQ(got, std::vector<std::uint64_t>(expected.begin() + mine.first, expected.begin() + mine.first + mine.size))
        << n << " items, rank " << rank;
  }
}

// Keys whose bits order differently from their values: -0 and +0 (equal, so
// tied by id), infinities, subnormals, NaNs of either sign and any payload;
// with thousands of them, and random ones, so every byte of a key tells.
TEST(GlobalRanks, EveryKindOfDoubleSortsAsComparisonsDo) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::vector<double> special = {0.0,
                                       -0.0,
                                       kInf,
                                       -kInf,
                                       std::numeric_limits<double>::denorm_min(),
                                       -std::numeric_limits<double>::denorm_min(),
                                       std::numeric_limits<double>::min(),
                                       std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::lowest(),
                                       kNaN,
                                       -kNaN,
                                       std::bit_cast<double>(std::uint64_t{0x7ff0000000000001}),
                                       std::bit_cast<double>(std::uint64_t{0xfff8000000000123}),
                                       1.0,
                                       -1.0,
                                       0.5};
  const std::size_t n = 4000;
  std::vector<double> keys(n);
  std::uint64_t state = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double random = std::ldexp(static_cast<double>(state >> 11), -static_cast<int>(state % 80)) *
                          (state >> 63 ? -1.0 : 1.0);
    keys[i] = i % 3 == 0 ? special[(i / 3) % special.size()] : random;
  }
  const std::vector<std::uint64_t> expected = sorted_positions(keys);
  const Slice mine = slice_of(n, rank, ranks);
  const std::vector<double> local(keys.begin() + mine.first, keys.begin() + mine.first + mine.size);
  EXPECT_EQ(global_ranks(MPI_COMM_WORLD, local, mine.first),
            std::vector<std::uint64_t>(expected.begin() + mine.first, expected.begin() + mine.first + mine.size))
      << "rank " << rank;
}

TEST(GlobalRanks, WithinGroupsCountOnlyTheGroupsItems) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::size_t n = 150;
  const std::uint32_t n_groups = 3;
  const std::vector<double> keys = all_keys(n);
  std::vector<std::uint32_t> groups(n);
  for (std::size_t i = 0; i < n; ++i) groups[i] = static_cast<std::uint32_t>((i * 5) % 4);  // group 3: in none
  const std::vector<std::uint64_t> overall = sorted_positions(keys);
  std::vector<std::uint64_t> expected(n, 0);
  for (std::uint32_t g = 0; g < n_groups; ++g) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < n; ++i)
      if (groups[i] == g) members.push_back(i);
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) { return overall[a] < overall[b]; });
    for (std::size_t k = 0; k < members.size(); ++k) expected[members[k]] = k + 1;
  }
  const Slice mine = slice_of(n, rank, ranks);
  const std::vector<double> local(keys.begin() + mine.first, keys.begin() + mine.first + mine.size);
  const std::vector<std::uint32_t> local_groups(groups.begin() + mine.first, groups.begin() + mine.first + mine.size);
  const GroupedRanks got = global_ranks_grouped(MPI_COMM_WORLD, local, mine.first, local_groups, n_groups);
  EXPECT_EQ(got.overall,
            std::vector<std::uint64_t>(overall.begin() + mine.first, overall.begin() + mine.first + mine.size));
  EXPECT_EQ(got.within_group,
            std::vector<std::uint64_t>(expected.begin() + mine.first, expected.begin() + mine.first + mine.size));
  EXPECT_EQ(global_ranks_within(MPI_COMM_WORLD, local, mine.first, local_groups, n_groups), got.within_group);
}

}  // namespace
}  // namespace tdcone::mpi
