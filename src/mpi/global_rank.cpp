#include "tdcone/mpi/global_rank.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <utility>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

namespace {

// A key as an unsigned integer in the order of global_ranks: NaN after all
// others (every NaN alike), and -0 equal to +0 (they compare equal as doubles).
std::uint64_t order_of(double key) {
  if (std::isnan(key)) return ~std::uint64_t{0};
  const auto bits = std::bit_cast<std::uint64_t>(key == 0.0 ? 0.0 : key);
  constexpr std::uint64_t sign = std::uint64_t{1} << 63;
  return bits & sign ? ~bits : bits | sign;
}

struct Item {
  std::uint64_t order;  // order_of(key)
  std::uint64_t id;
  std::uint32_t group;  // for the positions within groups; not part of the order
};

bool before(const Item& a, const Item& b) { return a.order != b.order ? a.order < b.order : a.id < b.id; }

// Sorts items that are in id order by (order, id): a stable LSD radix sort on
// the order's digits of 11 bits, skipping the digits that all items share.
// Six passes over the items where bytes took eight (a pair's TD-CONE differs
// in every byte but the top one; the counts, 96 KiB, stay in the cache).
void sort_id_ordered(std::vector<Item>& items) {
  constexpr int kDigitBits = 11, kDigits = (64 + kDigitBits - 1) / kDigitBits;
  constexpr std::uint64_t kDigitMask = (std::uint64_t{1} << kDigitBits) - 1;
  const auto digit = [](const Item& item, int d) { return (item.order >> (kDigitBits * d)) & kDigitMask; };
  std::vector<std::array<std::size_t, kDigitMask + 1>> counts(kDigits);
  for (const Item& item : items)
    for (int d = 0; d < kDigits; ++d) ++counts[d][digit(item, d)];
  std::vector<Item> scratch(items.size());
  for (int d = 0; d < kDigits; ++d) {
    auto& count = counts[d];
    if (std::find(count.begin(), count.end(), items.size()) != count.end()) continue;  // one value: no move
    std::size_t start = 0;
    for (auto& c : count) start += std::exchange(c, start);
    for (const Item& item : items) scratch[count[digit(item, d)]++] = item;
    items.swap(scratch);
  }
}

// Merges the sorted runs [offset[r], offset[r + 1]) of `items`, pairwise.
void merge_runs(std::vector<Item>& items, std::vector<std::size_t> offset) {
  while (offset.size() > 2) {
    std::vector<std::size_t> merged{0};
    std::size_t r = 0;
    for (; r + 2 < offset.size(); r += 2) {
      std::inplace_merge(items.begin() + offset[r], items.begin() + offset[r + 1], items.begin() + offset[r + 2], before);
      merged.push_back(offset[r + 2]);
    }
    if (r + 1 < offset.size()) merged.push_back(offset.back());  // an odd run out
    offset.swap(merged);
  }
}

struct Placed {
  std::uint64_t id;
  std::uint64_t rank, rank_in_group;
};

template <class T>
std::vector<T> all_gather(MPI_Comm comm, const std::vector<T>& mine, int n_ranks) {
  return all_to_all(comm, std::vector<std::vector<T>>(n_ranks, mine)).records;
}

}  // namespace

// Every local item's position in the global order, and within its group
// (groups[i] < n_groups) when n_groups > 0: the sorted buckets hold the
// global order, so a group's positions are its items counted along it.
GroupedRanks global_ranks_grouped(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id,
                                  std::span<const std::uint32_t> groups, std::uint32_t n_groups) {
  int n_ranks = 1, rank = 0;
  MPI_Comm_size(comm, &n_ranks);
  MPI_Comm_rank(comm, &rank);
  std::vector<Item> items(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) items[i] = {order_of(keys[i]), first_id + i, n_groups ? groups[i] : 0};
  sort_id_ordered(items);

  // Splitters from regular samples of every rank's sorted items.
  const std::size_t per_rank = std::min<std::size_t>(items.size(), 32 * static_cast<std::size_t>(n_ranks));
  std::vector<Item> samples;
  for (std::size_t k = 0; k < per_rank; ++k) samples.push_back(items[(k + 1) * items.size() / (per_rank + 1)]);
  std::vector<Item> all_samples = all_gather(comm, samples, n_ranks);
  std::sort(all_samples.begin(), all_samples.end(), before);
  std::vector<Item> splitters;
  for (int r = 1; r < n_ranks && !all_samples.empty(); ++r)
    splitters.push_back(all_samples[r * all_samples.size() / n_ranks]);

  // The items are sorted: rank r's are a run of them, up to splitter r. The
  // other ranks' runs are copied once, at their size (grown item by item, a
  // box doubles, is copied and touches about twice its pages); this rank's
  // own run moves to the front of the items, which become its box and then,
  // not copied, the first run received (the runs are merged in any order).
  std::vector<std::vector<Item>> outbox(n_ranks);
  auto from = items.begin();
  std::size_t own_size = 0;
  for (int r = 0; r < n_ranks; ++r) {
    const auto to = r < static_cast<int>(splitters.size())
                        ? std::partition_point(from, items.end(), [&](const Item& item) { return before(item, splitters[r]); })
                        : items.end();
    if (r == rank) {
      own_size = static_cast<std::size_t>(to - from);
      if (from != items.begin()) std::move(from, to, items.begin());  // after the runs before it were copied
    } else {
      outbox[r].assign(from, to);
    }
    from = to;
  }
  items.resize(own_size);
  outbox[rank] = std::move(items);
  Received<Item> received;
  all_to_all_own_first(comm, outbox, received);
  outbox = {};
  std::vector<Item> bucket = std::move(received.records);
  merge_runs(bucket, std::move(received.offset));  // a sorted run from each rank

  std::uint64_t before_me = 0, mine = bucket.size();
  MPI_Exscan(&mine, &before_me, 1, MPI_UINT64_T, MPI_SUM, comm);
  if (rank == 0) before_me = 0;
  // Items of each group in the buckets of earlier ranks.
  std::vector<std::uint64_t> in_group(n_groups, 0), group_before_me(n_groups, 0);
  for (const Item& item : bucket)
    if (item.group < n_groups) ++in_group[item.group];
  if (n_groups > 0) MPI_Exscan(in_group.data(), group_before_me.data(), static_cast<int>(n_groups), MPI_UINT64_T, MPI_SUM, comm);
  if (rank == 0) std::fill(group_before_me.begin(), group_before_me.end(), 0);

  // Send each position back to the rank that holds the item.
  const std::vector<std::uint64_t> first_ids = all_gather(comm, std::vector<std::uint64_t>{first_id}, n_ranks);
  const std::vector<std::uint64_t> counts =
      all_gather(comm, std::vector<std::uint64_t>{static_cast<std::uint64_t>(keys.size())}, n_ranks);
  auto holder = [&](std::uint64_t id) {
    for (int r = 0; r < n_ranks; ++r)
      if (id >= first_ids[r] && id < first_ids[r] + counts[r]) return r;
    return 0;
  };
  // Each item's holder, found once and counted first, so that each reply is
  // made at its size.
  std::vector<int> holder_of(bucket.size());
  std::vector<std::size_t> replies_to(n_ranks, 0);
  int last_holder = 0;
  for (std::size_t i = 0; i < bucket.size(); ++i) {
    const std::uint64_t id = bucket[i].id;
    if (!(id >= first_ids[last_holder] && id < first_ids[last_holder] + counts[last_holder])) last_holder = holder(id);
    holder_of[i] = last_holder;
    ++replies_to[last_holder];
  }
  // The own replies become the records received, one a local item: their
  // box has room for all of these.
  std::vector<std::vector<Placed>> replies(n_ranks);
  for (int r = 0; r < n_ranks; ++r) replies[r].reserve(r == rank ? keys.size() : replies_to[r]);
  for (std::size_t i = 0; i < bucket.size(); ++i) {
    const std::uint32_t g = bucket[i].group;
    replies[holder_of[i]].push_back({bucket[i].id, before_me + i + 1, g < n_groups ? ++group_before_me[g] : 0});
  }
  bucket = {};
  holder_of = {};
  Received<Placed> placed;
  all_to_all_own_first(comm, replies, placed);
  replies = {};
  GroupedRanks ranks;
  ranks.overall.assign(keys.size(), 0);
  if (n_groups > 0) ranks.within_group.assign(keys.size(), 0);
  for (const Placed& p : placed.records) {
    ranks.overall[p.id - first_id] = p.rank;
    if (n_groups > 0) ranks.within_group[p.id - first_id] = p.rank_in_group;
  }
  return ranks;
}

std::vector<std::uint64_t> global_ranks(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id) {
  return global_ranks_grouped(comm, keys, first_id, {}, 0).overall;
}

std::vector<std::uint64_t> global_ranks_within(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id,
                                               std::span<const std::uint32_t> groups, std::uint32_t n_groups) {
  std::vector<std::uint64_t> within = global_ranks_grouped(comm, keys, first_id, groups, n_groups).within_group;
  within.resize(keys.size(), 0);  // no group at all: every item in none
  return within;
}

}  // namespace tdcone::mpi
