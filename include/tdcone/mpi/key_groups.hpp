#pragma once
// Pairs grouped by a key over all ranks (tdcone score --dedup): each key goes
// to an owner rank chosen by the key, the owner sorts its keys with their
// pair_ids, and tells each pair's home rank the first pair (by pair_id) with
// the same key and how many have it. Every rank holds about 1/P of the keys,
// and the answer does not depend on the number of ranks.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/text/dedup_key.hpp"

namespace tdcone::mpi {

/// The group of a run of local pairs, pair_id .. pair_id + count - 1, with
/// one key: told only for a key that is shared (size of 2 or more) or is in
/// the other set.
struct KeyGroup {
  std::uint64_t pair_id = 0;
  std::uint64_t first = 0;  // the smallest pair_id with the key, over all ranks
  std::uint64_t size = 0;   // pairs with the key
  std::uint64_t in_other = 0;  // 1: the key is also a key of the other set (the reference)
  std::uint64_t count = 1;     // pairs in the run
  bool operator==(const KeyGroup&) const = default;
};

/// The groups of this rank's pairs, and global counts (the same on every rank).
struct KeyGroups {
  std::vector<KeyGroup> groups;  // in no particular order
  std::uint64_t later_copies = 0;  // pairs that are not the first of their key
  std::uint64_t in_other = 0;      // pairs whose key is in the other set
};

/// Groups this rank's pairs (pair i has pair_id `first_pair_id` + i and key
/// `keys[i]`) with every rank's by key. A pair flagged bad_line in `flags`
/// is in no group. `other_keys` (with `other_flags`): a second set's keys,
/// only looked up, e.g. the reference's. Collective.
KeyGroups group_keys(const boost::mpi::communicator& comm, std::uint64_t first_pair_id,
                     std::span<const text::DedupKey> keys, std::span<const std::uint8_t> flags,
                     std::span<const text::DedupKey> other_keys = {}, std::span<const std::uint8_t> other_flags = {});

}  // namespace tdcone::mpi
