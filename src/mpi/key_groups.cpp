#include "tdcone/mpi/key_groups.hpp"

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
  std::vector<text::DedupKey> other;
  {
    const std::vector<KeyRecord> owned = route_keys(comm, 0, other_keys, other_flags);
    other.reserve(owned.size());
    for (const KeyRecord& record : owned) other.push_back(record.key);
  }
  std::sort(other.begin(), other.end());
  other.erase(std::unique(other.begin(), other.end()), other.end());

  std::vector<KeyRecord> owned = route_keys(comm, first_pair_id, keys, flags);
  std::sort(owned.begin(), owned.end(), [](const KeyRecord& a, const KeyRecord& b) {
    return a.key != b.key ? a.key < b.key : a.pair_id < b.pair_id;
  });
  // Each pair's home: the last rank whose first pair_id is not after it (a rank without pairs shares its first with the next).
  std::vector<std::uint64_t> first_of_rank;
  boost::mpi::all_gather(comm, first_pair_id, first_of_rank);
  const auto home_of = [&](std::uint64_t pair_id) {
    return static_cast<int>(std::upper_bound(first_of_rank.begin(), first_of_rank.end(), pair_id) - first_of_rank.begin() - 1);
  };
  std::vector<std::vector<KeyGroup>> answers(comm.size());
  std::uint64_t counts[2] = {0, 0};  // later copies, pairs in the other set
  for (std::size_t begin = 0; begin < owned.size();) {
    std::size_t end = begin + 1;
    while (end < owned.size() && owned[end].key == owned[begin].key) ++end;
    const std::uint64_t size = end - begin;
    const bool in_other = std::binary_search(other.begin(), other.end(), owned[begin].key);
    counts[0] += size - 1;
    if (in_other) counts[1] += size;
    if (size > 1 || in_other)  // the rest are groups of one: the home rank knows them without a word
      for (std::size_t k = begin; k < end; ++k)
        answers[home_of(owned[k].pair_id)].push_back(
            {owned[k].pair_id, owned[begin].pair_id, size, in_other ? 1u : 0u});
    begin = end;
  }
  std::vector<KeyRecord>().swap(owned);
  std::vector<text::DedupKey>().swap(other);
  KeyGroups result;
  result.groups = all_to_all(MPI_Comm(comm), answers).records;
  const std::vector<std::uint64_t> totals = sum_all(MPI_Comm(comm), std::vector<std::uint64_t>(counts, counts + 2));
  result.later_copies = totals[0];
  result.in_other = totals[1];
  return result;
}

}  // namespace tdcone::mpi
