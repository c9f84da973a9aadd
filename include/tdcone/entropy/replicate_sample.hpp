#pragma once
// Equal-size samples of subsets, drawn again and again (replicates): which
// pairs replicate r of a subset holds, by a hash anyone can compute from
// pair_ids (docs/spec.md §5 replicates).
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::entropy {

/// A pair's place in a sample: XXH3-64 of its pair_id (8 bytes, little
/// endian) with `seed` in the high half, the pair_id in the low half. A sample
/// of n pairs holds the n smallest keys; the pair_id breaks ties between
/// equal hashes, so a sample always has exactly its size.
using SampleKey = unsigned __int128;
SampleKey sample_key(std::uint64_t pair_id, std::uint64_t seed);

/// The hash seed of replicate r: `seed` itself for r = 0 (the sample that
/// --sample alone draws), seed + r * 0x9E3779B97F4A7C15 (mod 2^64) after.
std::uint64_t replicate_seed(std::uint64_t seed, std::uint32_t replicate);

/// Per subset t: the largest key its sample of `sample` pairs holds, or the
/// largest key there is when the subset has at most `sample` pairs (sizes[t],
/// over all ranks). keys[t]: this rank's keys of subset t's pairs; sorted here.
/// A fixed number of rounds of one sum each, on every rank. Collective.
std::vector<SampleKey> sample_cuts(const boost::mpi::communicator& comm, std::vector<std::vector<SampleKey>>& keys,
                                   std::uint64_t sample, const std::vector<std::uint64_t>& sizes);

/// One replicate of some subsets of a grouping.
struct ReplicateSample {
  /// Per local pair of the share (kNoGroup: in no sample); subsets keep their
  /// indices, and a group lists the subsets whose sample holds its pairs.
  PairGroups groups;
  std::vector<std::size_t> pairs;      // the local pairs in some sample, in order
  std::vector<std::uint64_t> sampled;  // per subset: pairs of its sample, min(sample, |S|); 0 if not replicated
};

/// The pairs of every subset of `groups`, over all ranks. Collective.
std::vector<std::uint64_t> subset_sizes(const boost::mpi::communicator& comm, const PairGroups& groups);

/// The scores of the samples of some subsets, replicate by replicate.
struct ReplicateScores {
  std::uint64_t sample = 0;            // N, after --sample auto
  std::uint32_t replicates = 0;        // R
  std::uint64_t seed = 0;
  std::uint32_t first = 0;             // the replicate of of_replicate[0]
  std::vector<std::uint64_t> sampled;  // per subset: pairs of each of its samples
  std::vector<std::vector<SubsetScore>> of_replicate;  // [replicate - first][subset]

  bool ran() const { return !of_replicate.empty(); }
};

/// Replicate `replicate` of every subset s of `full` with replicated[s]: the
/// min(sample, |S|) pairs of S with the smallest
/// sample_key(pair_id, replicate_seed(seed, replicate)). A group is a
/// distinct (group of `full`, subsets sampled) over all ranks, numbered in
/// sorted order, so the grouping is the same for any rank count. A group of
/// `full` may be in at most 64 replicated subsets. Collective.
ReplicateSample replicate_sample(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const PairGroups& full, const std::vector<bool>& replicated, std::uint64_t sample,
                                 std::uint64_t seed, std::uint32_t replicate);

}  // namespace tdcone::entropy
