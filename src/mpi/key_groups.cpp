#include "tdcone/mpi/key_groups.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <boost/mpi/collectives.hpp>

#include <algorithm>

#include "tdcone/mpi/exchange.hpp"
#include "tdcone/schema/pair_flags.hpp"

namespace tdcone::mpi {

namespace {

struct KeyRecord {
  text::DedupKey key;
  std::uint64_t pair_id = 0;
};

struct Group {
  std::uint64_t first = 0, size = 0;
  bool in_other = false;
};

// The keys are hashes already: their low word is a hash of them (the owner was chosen by the high word).
struct KeyHash {
  std::size_t operator()(const text::DedupKey& key) const { return key.low; }
};

// The owner of a key: the keys are hashes, so their high bits spread evenly over the ranks.
int owner_of(const text::DedupKey& key, int ranks) {
  return static_cast<int>((static_cast<unsigned __int128>(key.high) * static_cast<unsigned>(ranks)) >> 64);
}

// Sends the key of each pair but the bad lines to its owner; returns what this rank owns.
std::vector<KeyRecord> route_keys(const boost::mpi::communicator& comm, std::uint64_t first_pair_id,
                                  std::span<const text::DedupKey> keys, std::span<const std::uint8_t> flags) {
  const int ranks = comm.size();
  std::vector<std::size_t> counts(ranks);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!(flags[i] & schema::bad_line)) ++counts[owner_of(keys[i], ranks)];
  std::vector<std::vector<KeyRecord>> outbox(ranks);
  for (int r = 0; r < ranks; ++r) outbox[r].reserve(counts[r]);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!(flags[i] & schema::bad_line)) outbox[owner_of(keys[i], ranks)].push_back({keys[i], first_pair_id + i});
  return all_to_all(MPI_Comm(comm), outbox).records;
}

}  // namespace

KeyGroups group_keys(const boost::mpi::communicator& comm, std::uint64_t first_pair_id,
                     std::span<const text::DedupKey> keys, std::span<const std::uint8_t> flags,
                     std::span<const text::DedupKey> other_keys, std::span<const std::uint8_t> other_flags) {
  absl::flat_hash_set<text::DedupKey, KeyHash> other;
  {
    const std::vector<KeyRecord> owned = route_keys(comm, 0, other_keys, other_flags);
    other.reserve(owned.size());
    for (const KeyRecord& record : owned) other.insert(record.key);
  }
  // The keys this rank owns, grouped in a hash table (fewer instructions than
  // sorting them); then each pair of a group is answered.
  std::vector<KeyRecord> owned = route_keys(comm, first_pair_id, keys, flags);
  absl::flat_hash_map<text::DedupKey, Group, KeyHash> groups;
  groups.reserve(owned.size());
  for (const KeyRecord& record : owned) {
    Group& group = groups.try_emplace(record.key, Group{record.pair_id, 0, false}).first->second;
    group.first = std::min(group.first, record.pair_id);
    ++group.size;
  }
  std::uint64_t counts[2] = {owned.size() - groups.size(), 0};  // later copies, pairs in the other set
  for (auto& [key, group] : groups) {
    group.in_other = other.contains(key);
    if (group.in_other) counts[1] += group.size;
  }
  absl::flat_hash_set<text::DedupKey, KeyHash>().swap(other);
  // Each pair's home: the last rank whose first pair_id is not after it (a rank without pairs shares its first with the next).
  std::vector<std::uint64_t> first_of_rank;
  boost::mpi::all_gather(comm, first_pair_id, first_of_rank);
  const auto home_of = [&](std::uint64_t pair_id) {
    return static_cast<int>(std::upper_bound(first_of_rank.begin(), first_of_rank.end(), pair_id) - first_of_rank.begin() - 1);
  };
  std::vector<std::vector<KeyGroup>> answers(comm.size());
  for (const KeyRecord& record : owned) {
    const Group& group = groups.find(record.key)->second;
    if (group.size > 1 || group.in_other)  // the rest are groups of one: the home rank knows them without a word
      answers[home_of(record.pair_id)].push_back({record.pair_id, group.first, group.size, group.in_other ? 1u : 0u});
  }
  std::vector<KeyRecord>().swap(owned);
  absl::flat_hash_map<text::DedupKey, Group, KeyHash>().swap(groups);
  KeyGroups result;
  result.groups = all_to_all(MPI_Comm(comm), answers).records;
  const std::vector<std::uint64_t> totals = sum_all(MPI_Comm(comm), std::vector<std::uint64_t>(counts, counts + 2));
  result.later_copies = totals[0];
  result.in_other = totals[1];
  return result;
}

}  // namespace tdcone::mpi
