#include "tdcone/mpi/global_rank.hpp"

#include <algorithm>
#include <cmath>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

namespace {

struct Item {
  double key;
  std::uint64_t id;
  std::uint32_t group;  // for the positions within groups; not part of the order
};

bool before(const Item& a, const Item& b) {
  const bool a_nan = std::isnan(a.key), b_nan = std::isnan(b.key);
  if (a_nan != b_nan) return b_nan;
  if (!a_nan && a.key != b.key) return a.key < b.key;
  return a.id < b.id;
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
  for (std::size_t i = 0; i < keys.size(); ++i) items[i] = {keys[i], first_id + i, n_groups ? groups[i] : 0};
  std::sort(items.begin(), items.end(), before);

  // Splitters from regular samples of every rank's sorted items.
  const std::size_t per_rank = std::min<std::size_t>(items.size(), 32 * static_cast<std::size_t>(n_ranks));
  std::vector<Item> samples;
  for (std::size_t k = 0; k < per_rank; ++k) samples.push_back(items[(k + 1) * items.size() / (per_rank + 1)]);
  std::vector<Item> all_samples = all_gather(comm, samples, n_ranks);
  std::sort(all_samples.begin(), all_samples.end(), before);
  std::vector<Item> splitters;
  for (int r = 1; r < n_ranks && !all_samples.empty(); ++r)
    splitters.push_back(all_samples[r * all_samples.size() / n_ranks]);

  std::vector<std::vector<Item>> outbox(n_ranks);
  std::size_t dest = 0;
  for (const Item& item : items) {
    while (dest < splitters.size() && !before(item, splitters[dest])) ++dest;
    outbox[dest].push_back(item);
  }
  items = {};
  auto bucket = all_to_all(comm, outbox).records;
  outbox = {};
  std::sort(bucket.begin(), bucket.end(), before);

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
  std::vector<std::vector<Placed>> replies(n_ranks);
  int last_holder = 0;
  for (std::size_t i = 0; i < bucket.size(); ++i) {
    const std::uint64_t id = bucket[i].id;
    if (!(id >= first_ids[last_holder] && id < first_ids[last_holder] + counts[last_holder])) last_holder = holder(id);
    const std::uint32_t g = bucket[i].group;
    replies[last_holder].push_back({id, before_me + i + 1, g < n_groups ? ++group_before_me[g] : 0});
  }
  bucket = {};
  GroupedRanks ranks;
  ranks.overall.assign(keys.size(), 0);
  if (n_groups > 0) ranks.within_group.assign(keys.size(), 0);
  for (const Placed& p : all_to_all(comm, replies).records) {
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
