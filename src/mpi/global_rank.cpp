#include "tdcone/mpi/global_rank.hpp"

#include <algorithm>
#include <cmath>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

namespace {

struct Item {
  std::uint32_t group;
  double key;
  std::uint64_t id;
};

bool before(const Item& a, const Item& b) {
  if (a.group != b.group) return a.group < b.group;
  const bool a_nan = std::isnan(a.key), b_nan = std::isnan(b.key);
  if (a_nan != b_nan) return b_nan;
  if (!a_nan && a.key != b.key) return a.key < b.key;
  return a.id < b.id;
}

struct Placed {
  std::uint64_t id;
  std::uint64_t rank;
};

template <class T>
std::vector<T> all_gather(MPI_Comm comm, const std::vector<T>& mine, int n_ranks) {
  return all_to_all(comm, std::vector<std::vector<T>>(n_ranks, mine)).records;
}

// Positions in the global order of `items` (sorted here), for the items'
// ids in [first_id, first_id + local_items); 0 for ids not among the items.
std::vector<std::uint64_t> sorted_positions(MPI_Comm comm, std::vector<Item> items, std::uint64_t first_id,
                                            std::size_t local_items) {
  int n_ranks = 1, rank = 0;
  MPI_Comm_size(comm, &n_ranks);
  MPI_Comm_rank(comm, &rank);
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

  // Send each position back to the rank that holds the item.
  const std::vector<std::uint64_t> first_ids = all_gather(comm, std::vector<std::uint64_t>{first_id}, n_ranks);
  const std::vector<std::uint64_t> counts =
      all_gather(comm, std::vector<std::uint64_t>{static_cast<std::uint64_t>(local_items)}, n_ranks);
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
    replies[last_holder].push_back({id, before_me + i + 1});
  }
  bucket = {};
  std::vector<std::uint64_t> ranks(local_items, 0);
  for (const Placed& p : all_to_all(comm, replies).records) ranks[p.id - first_id] = p.rank;
  return ranks;
}

}  // namespace

std::vector<std::uint64_t> global_ranks(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id) {
  std::vector<Item> items(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) items[i] = {0, keys[i], first_id + i};
  return sorted_positions(comm, std::move(items), first_id, keys.size());
}

std::vector<std::uint64_t> global_ranks_within(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id,
                                               std::span<const std::uint32_t> groups, std::uint32_t n_groups) {
  std::vector<Item> items;
  std::vector<std::uint64_t> local_sizes(n_groups, 0);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (groups[i] < n_groups) {
      items.push_back({groups[i], keys[i], first_id + i});
      ++local_sizes[groups[i]];
    }
  std::vector<std::uint64_t> ranks = sorted_positions(comm, std::move(items), first_id, keys.size());
  // A group's items follow those of the groups before it.
  const std::vector<std::uint64_t> sizes = sum_all(comm, local_sizes);
  std::vector<std::uint64_t> before_group(n_groups, 0);
  for (std::uint32_t g = 1; g < n_groups; ++g) before_group[g] = before_group[g - 1] + sizes[g - 1];
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (groups[i] < n_groups) ranks[i] -= before_group[groups[i]];
  return ranks;
}

}  // namespace tdcone::mpi
