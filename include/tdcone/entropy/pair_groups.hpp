#pragma once
// Which subsets each pair belongs to: the corpus, shards (docs/spec.md §5 --shards),
// score-threshold subsets and their samples (docs/spec.md §5 sweep).
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::entropy {

/// Every scored pair in group 0, which is subset 0 (the corpus).
PairGroups corpus_groups(const text::TokenizedShare& share);

enum class ShardBy {
  hash,   // hash of pair_id with the seed
  file,   // input file index (mod K)
  block,  // pair p of N goes to floor(p·K/N)
};

/// The shard (0..shards-1) of every local pair, bad lines included.
std::vector<std::uint32_t> assign_shards(const text::TokenizedShare& share, std::size_t shards, ShardBy by,
                                         std::uint64_t seed);

/// Shard k is group k and subset 1 + k; every group is also in subset 0.
PairGroups shard_groups(const text::TokenizedShare& share, const std::vector<std::uint32_t>& shard_of_pair,
                        std::size_t shards);

/// Buckets of input lengths (score --length-buckets): bucket k holds the
/// scored pairs with bounds[k-1] < src_len <= bounds[k], the last bucket
/// (k = bounds.size()) those above the last bound. Bucket k is group k and
/// subset 1 + k. `bounds`: increasing.
PairGroups length_groups(const text::TokenizedShare& share, const std::vector<std::uint64_t>& bounds);

/// The pairs grouped by `a` and `b` at once (both over the same pairs, bad
/// lines kNoGroup in both): a's subsets, then b's after its subset 0 (b's
/// subset s becomes a.subset_count + s - 1). Groups are the pairs (a group,
/// b group) present on any rank, in sorted order. Collective.
PairGroups combine_groups(const boost::mpi::communicator& comm, const PairGroups& a, const PairGroups& b);

struct ThresholdGroups {
  PairGroups groups;                       // subset 1 + i: (a sample of) S_t for thresholds[i]
  std::vector<std::uint64_t> subset_size;  // |S_t| before sampling, per threshold
  std::vector<std::uint64_t> mask_of_pair; // per local pair: bit i = in subset 1 + i
};

/// S_t = scored pairs with score >= t, for up to 64 thresholds. With
/// sample > 0, S_t is replaced by the `sample` pairs of S_t with the smallest
/// hash(pair_id, seed): a uniform sample without replacement, the same for
/// any rank count. Collective.
ThresholdGroups threshold_groups(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const std::vector<double>& thresholds, std::uint64_t sample, std::uint64_t seed);

/// The same over any per-pair value (`values[i]` of local pair i, e.g. a
/// pair's BLEU): S_t = scored pairs with value >= t, or <= t when `below`.
/// A NaN value is in no S_t. Collective.
ThresholdGroups threshold_groups(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 std::span<const double> values, bool below, const std::vector<double>& thresholds,
                                 std::uint64_t sample, std::uint64_t seed);

}  // namespace tdcone::entropy
