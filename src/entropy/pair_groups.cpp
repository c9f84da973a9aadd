#include "tdcone/entropy/pair_groups.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/vector.hpp>
#include <xxhash.h>

#include <algorithm>
#include <stdexcept>

#include "tdcone/core/error.hpp"
#include "tdcone/entropy/replicate_sample.hpp"
#include "tdcone/mpi/exchange.hpp"

namespace tdcone::entropy {

namespace {

bool scored(const text::TokenizedShare& share, std::size_t i) { return !(share.flags[i] & schema::bad_line); }

std::uint64_t pair_hash(std::uint64_t pair_id, std::uint64_t seed) { return XXH3_64bits_withSeed(&pair_id, 8, seed); }

}  // namespace

PairGroups corpus_groups(const text::TokenizedShare& share) {
  PairGroups groups;
  groups.subsets_of_group = {{0}};
  groups.group_of_pair.resize(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) groups.group_of_pair[i] = scored(share, i) ? 0 : kNoGroup;
  return groups;
}

std::vector<std::uint32_t> assign_shards(const text::TokenizedShare& share, std::size_t shards, ShardBy by,
                                         std::uint64_t seed) {
  if (shards == 0) throw UsageError(cat(Option::shards, " must be at least 1"));
  std::vector<std::uint32_t> shard_of_pair(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) {
    const std::uint64_t pair_id = share.first_pair_id + i;
    std::uint64_t shard = 0;
    switch (by) {
      case ShardBy::hash: shard = pair_hash(pair_id, seed) % shards; break;
      case ShardBy::file: shard = share.file_of(i) % shards; break;
      case ShardBy::block:
        shard = static_cast<std::uint64_t>(static_cast<unsigned __int128>(pair_id) * shards / share.total_lines);
        break;
    }
    shard_of_pair[i] = static_cast<std::uint32_t>(shard);
  }
  return shard_of_pair;
}

PairGroups shard_groups(const text::TokenizedShare& share, const std::vector<std::uint32_t>& shard_of_pair,
                        std::size_t shards) {
  PairGroups groups;
  groups.subset_count = 1 + shards;
  for (std::uint32_t k = 0; k < shards; ++k) groups.subsets_of_group.push_back({0, 1 + k});
  groups.group_of_pair.resize(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) groups.group_of_pair[i] = scored(share, i) ? shard_of_pair[i] : kNoGroup;
  return groups;
}

PairGroups length_groups(const text::TokenizedShare& share, const std::vector<std::uint64_t>& bounds) {
  PairGroups groups;
  groups.subset_count = 1 + bounds.size() + 1;
  for (std::uint32_t k = 0; k <= bounds.size(); ++k) groups.subsets_of_group.push_back({0, 1 + k});
  groups.group_of_pair.resize(share.size());
  for (std::size_t i = 0; i < share.size(); ++i)
    groups.group_of_pair[i] =
        scored(share, i) ? static_cast<std::uint32_t>(std::lower_bound(bounds.begin(), bounds.end(),
                                                                       std::uint64_t{share.src_len[i]}) - bounds.begin())
                         : kNoGroup;
  return groups;
}

namespace {

// The distinct values of `mine` over all ranks, sorted. Collective.
std::vector<std::uint64_t> distinct_everywhere(const boost::mpi::communicator& comm, std::vector<std::uint64_t> mine) {
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  std::vector<std::vector<std::uint64_t>> all;
  boost::mpi::all_gather(comm, mine, all);
  std::vector<std::uint64_t> values;
  for (auto& m : all) values.insert(values.end(), m.begin(), m.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

std::uint32_t index_in(const std::vector<std::uint64_t>& sorted, std::uint64_t value) {
  return static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin());
}

}  // namespace

PairGroups combine_groups(const boost::mpi::communicator& comm, const PairGroups& a, const PairGroups& b) {
  const std::size_t n = a.group_of_pair.size();
  const auto key = [&](std::size_t i) { return std::uint64_t{a.group_of_pair[i]} * b.group_count() + b.group_of_pair[i]; };
  std::vector<std::uint64_t> keys;
  for (std::size_t i = 0; i < n; ++i)
    if (a.group_of_pair[i] != kNoGroup) keys.push_back(key(i));
  const std::vector<std::uint64_t> present = distinct_everywhere(comm, std::move(keys));

  PairGroups groups;
  groups.subset_count = a.subset_count + b.subset_count - 1;
  for (std::uint64_t k : present) {
    std::vector<std::uint32_t> subsets = a.subsets_of_group[k / b.group_count()];
    for (std::uint32_t s : b.subsets_of_group[k % b.group_count()])
      if (s > 0) subsets.push_back(static_cast<std::uint32_t>(a.subset_count + s - 1));
    groups.subsets_of_group.push_back(std::move(subsets));
  }
  groups.group_of_pair.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    groups.group_of_pair[i] = a.group_of_pair[i] == kNoGroup ? kNoGroup : index_in(present, key(i));
  return groups;
}

ThresholdGroups threshold_groups(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const std::vector<double>& thresholds, std::uint64_t sample, std::uint64_t seed) {
  if (share.scores.size() != share.size())
    throw UsageError(cat("a sweep needs a score column (", Option::score_col, " or ", Option::score_field, ")"));
  return threshold_groups(comm, share, share.scores, false, thresholds, sample, seed);
}

ThresholdGroups threshold_groups(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 std::span<const double> values, bool below, const std::vector<double>& thresholds,
                                 std::uint64_t sample, std::uint64_t seed) {
  if (thresholds.empty() || thresholds.size() > 64) throw UsageError(cat(Option::thresholds, " takes 1 to 64 values"));
  if (values.size() != share.size()) throw std::logic_error("threshold_groups: a value per pair");
  const auto in_subset = [below](double value, double t) { return below ? value <= t : value >= t; };  // NaN: false
  const std::size_t n = thresholds.size();
  ThresholdGroups result;
  result.mask_of_pair.assign(share.size(), 0);

  std::vector<std::vector<SampleKey>> keys(n);
  std::vector<std::uint64_t> local_sizes(n, 0);
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (!scored(share, i)) continue;
    const std::uint64_t pair_id = share.first_pair_id + i;
    const SampleKey key = sample_key(pair_id, seed);
    for (std::size_t t = 0; t < n; ++t)
      if (in_subset(values[i], thresholds[t])) {
        ++local_sizes[t];
        if (sample > 0) keys[t].push_back(key);
      }
  }
  result.subset_size = mpi::sum_all(MPI_Comm(comm), local_sizes);
  std::vector<SampleKey> cut(n, ~SampleKey{0});
  if (sample > 0) cut = sample_cuts(comm, keys, sample, result.subset_size);

  for (std::size_t i = 0; i < share.size(); ++i) {
    if (!scored(share, i)) continue;
    const std::uint64_t pair_id = share.first_pair_id + i;
    const SampleKey key = sample_key(pair_id, seed);
    for (std::size_t t = 0; t < n; ++t)
      if (in_subset(values[i], thresholds[t]) && key <= cut[t]) result.mask_of_pair[i] |= std::uint64_t{1} << t;
  }

  // Groups are the distinct masks over all ranks, numbered in sorted order.
  const std::vector<std::uint64_t> masks = distinct_everywhere(comm, result.mask_of_pair);
  PairGroups& groups = result.groups;
  groups.subset_count = 1 + n;
  for (std::uint64_t mask : masks) {
    std::vector<std::uint32_t> subsets{0};
    for (std::uint32_t t = 0; t < n; ++t)
      if (mask >> t & 1u) subsets.push_back(1 + t);
    groups.subsets_of_group.push_back(std::move(subsets));
  }
  groups.group_of_pair.resize(share.size());
  for (std::size_t i = 0; i < share.size(); ++i)
    groups.group_of_pair[i] =
        scored(share, i) ? index_in(masks, result.mask_of_pair[i]) : kNoGroup;
  return result;
}

}  // namespace tdcone::entropy
