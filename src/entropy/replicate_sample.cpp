#include "tdcone/entropy/replicate_sample.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/vector.hpp>
#include <xxhash.h>

#include <algorithm>
#include <utility>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/exchange.hpp"

namespace tdcone::entropy {

SampleKey sample_key(std::uint64_t pair_id, std::uint64_t seed) {
  return (SampleKey{XXH3_64bits_withSeed(&pair_id, 8, seed)} << 64) | pair_id;
}

std::uint64_t replicate_seed(std::uint64_t seed, std::uint32_t replicate) {
  return seed + std::uint64_t{replicate} * 0x9E3779B97F4A7C15ull;
}

std::vector<SampleKey> sample_cuts(const boost::mpi::communicator& comm, std::vector<std::vector<SampleKey>>& keys,
                                   std::uint64_t sample, const std::vector<std::uint64_t>& sizes) {
  const std::size_t n = keys.size();
  std::vector<SampleKey> lo(n, 0), hi(n, ~SampleKey{0});
  for (auto& k : keys) std::sort(k.begin(), k.end());
  // A binary search on the key with global counts; a fixed count of rounds,
  // so that every rank takes part in every sum.
  for (int step = 0; step < 128; ++step) {
    std::vector<std::uint64_t> below(n, 0);
    for (std::size_t t = 0; t < n; ++t) {
      const SampleKey mid = lo[t] + (hi[t] - lo[t]) / 2;
      below[t] = std::upper_bound(keys[t].begin(), keys[t].end(), mid) - keys[t].begin();
    }
    const std::vector<std::uint64_t> total = mpi::sum_all(MPI_Comm(comm), below);
    for (std::size_t t = 0; t < n; ++t) {
      const SampleKey mid = lo[t] + (hi[t] - lo[t]) / 2;
      if (lo[t] == hi[t]) continue;
      if (total[t] >= sample) hi[t] = mid; else lo[t] = mid + 1;
    }
  }
  for (std::size_t t = 0; t < n; ++t)
    if (sizes[t] <= sample) lo[t] = ~SampleKey{0};
  return lo;
}

namespace {

// A pair's membership in one replicate: its group of the full grouping, and
// bit b for the b-th replicated subset of that group whose sample holds it.
using Membership = std::pair<std::uint32_t, std::uint64_t>;

// The distinct memberships over all ranks, sorted. Collective.
std::vector<Membership> distinct_everywhere(const boost::mpi::communicator& comm, std::vector<Membership> mine) {
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  std::vector<std::uint64_t> flat;
  for (const auto& [group, mask] : mine) flat.insert(flat.end(), {group, mask});
  std::vector<std::vector<std::uint64_t>> all;
  boost::mpi::all_gather(comm, flat, all);
  std::vector<Membership> values;
  for (const auto& rank : all)
    for (std::size_t k = 0; k + 1 < rank.size(); k += 2) values.emplace_back(static_cast<std::uint32_t>(rank[k]), rank[k + 1]);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace

std::vector<std::uint64_t> subset_sizes(const boost::mpi::communicator& comm, const PairGroups& groups) {
  std::vector<std::uint64_t> of_group(groups.group_count(), 0), sizes(groups.subset_count, 0);
  for (std::uint32_t g : groups.group_of_pair)
    if (g != kNoGroup) ++of_group[g];
  for (std::size_t g = 0; g < of_group.size(); ++g)
    for (std::uint32_t s : groups.subsets_of_group[g]) sizes[s] += of_group[g];
  return mpi::sum_all(MPI_Comm(comm), sizes);
}

ReplicateSample replicate_sample(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const PairGroups& full, const std::vector<bool>& replicated, std::uint64_t sample,
                                 std::uint64_t seed, std::uint32_t replicate) {
  const std::size_t n_subsets = full.subset_count, n = full.group_of_pair.size();
  // Per group of `full`, its replicated subsets: bit b of a membership is the b-th.
  std::vector<std::vector<std::uint32_t>> sampled_of_group(full.group_count());
  for (std::size_t g = 0; g < full.group_count(); ++g) {
    for (std::uint32_t s : full.subsets_of_group[g])
      if (replicated[s]) sampled_of_group[g].push_back(s);
    if (sampled_of_group[g].size() > 64)
      throw UsageError("replicates: a pair can be in at most 64 of the subsets sampled at once");
  }
  const std::uint64_t seed_of_replicate = replicate_seed(seed, replicate);
  std::vector<SampleKey> key_of_pair(n);
  std::vector<std::vector<SampleKey>> keys(n_subsets);
  std::vector<std::uint64_t> sizes(n_subsets, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t g = full.group_of_pair[i];
    if (g == kNoGroup) continue;
    key_of_pair[i] = sample_key(share.first_pair_id + i, seed_of_replicate);
    for (std::uint32_t s : sampled_of_group[g]) {
      ++sizes[s];
      keys[s].push_back(key_of_pair[i]);
    }
  }
  sizes = mpi::sum_all(MPI_Comm(comm), sizes);
  const std::vector<SampleKey> cut = sample_cuts(comm, keys, sample, sizes);
  std::vector<std::vector<SampleKey>>().swap(keys);

  std::vector<std::uint64_t> mask_of_pair(n, 0);
  std::vector<Membership> memberships;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t g = full.group_of_pair[i];
    if (g == kNoGroup) continue;
    const auto& subsets = sampled_of_group[g];
    for (std::size_t b = 0; b < subsets.size(); ++b)
      if (key_of_pair[i] <= cut[subsets[b]]) mask_of_pair[i] |= std::uint64_t{1} << b;
    if (mask_of_pair[i] != 0) memberships.emplace_back(g, mask_of_pair[i]);
  }
  const std::vector<Membership> present = distinct_everywhere(comm, std::move(memberships));

  ReplicateSample result;
  PairGroups& groups = result.groups;
  groups.subset_count = n_subsets;
  for (const auto& [g, mask] : present) {
    std::vector<std::uint32_t> subsets;
    for (std::size_t b = 0; b < sampled_of_group[g].size(); ++b)
      if (mask >> b & 1u) subsets.push_back(sampled_of_group[g][b]);
    groups.subsets_of_group.push_back(std::move(subsets));  // sorted: `full` lists them so
  }
  groups.group_of_pair.assign(n, kNoGroup);
  for (std::size_t i = 0; i < n; ++i) {
    if (mask_of_pair[i] == 0) continue;
    const Membership m{full.group_of_pair[i], mask_of_pair[i]};
    groups.group_of_pair[i] = static_cast<std::uint32_t>(std::lower_bound(present.begin(), present.end(), m) - present.begin());
    result.pairs.push_back(i);
  }
  result.sampled.assign(n_subsets, 0);
  for (std::size_t s = 0; s < n_subsets; ++s)
    if (replicated[s]) result.sampled[s] = std::min(sample, sizes[s]);
  return result;
}

}  // namespace tdcone::entropy
