#include "tdcone/mpi/key_groups.hpp"

#include <boost/mpi/collectives.hpp>

#include <algorithm>

#include "tdcone/mpi/exchange.hpp"
#include "tdcone/schema/pair_flags.hpp"

namespace tdcone::mpi {

namespace {

// A run of a rank's consecutive pairs with one key (a source repeated over
// its candidates is one record, not one a pair).
struct KeyRecord {
  text::DedupKey key;
  std::uint64_t pair_id = 0;  // the run's first
  std::uint64_t count = 0;    // pairs in the run
};

// The order of the keys on their owner: by the low word first (the owner was
// chosen by the high word, so the low word's top bits spread the keys evenly).
bool key_before(const text::DedupKey& a, const text::DedupKey& b) {
  return a.low != b.low ? a.low < b.low : a.high < b.high;
}

bool operator<(const KeyRecord& a, const KeyRecord& b) {
  return a.key != b.key ? key_before(a.key, b.key) : a.pair_id < b.pair_id;
}

// Sorts by (key, pair_id): first into buckets by the top bits of the key's low
// word (the buckets are even, and in key order), then each bucket, small
// enough to sort in cache. A comparison sort of all of them, or a hash table,
// misses the cache on most steps at millions of keys.
void sort_records(std::vector<KeyRecord>& records) {
  constexpr int kMaxBucketBits = 16;
  int bits = 0;
  while (bits < kMaxBucketBits && (std::size_t{16} << bits) < records.size()) ++bits;  // about 16 records a bucket
  if (bits == 0) {
    std::sort(records.begin(), records.end());
    return;
  }
  const auto bucket_of = [bits](const KeyRecord& record) { return static_cast<std::size_t>(record.key.low >> (64 - bits)); };
  std::vector<std::size_t> start((std::size_t{1} << bits) + 1, 0);
  for (const KeyRecord& record : records) ++start[bucket_of(record) + 1];
  for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  std::vector<KeyRecord> sorted(records.size());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const KeyRecord& record : records) sorted[next[bucket_of(record)]++] = record;
  std::vector<KeyRecord>().swap(records);
  for (std::size_t b = 0; b + 1 < start.size(); ++b)
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(start[b]), sorted.begin() + static_cast<std::ptrdiff_t>(start[b + 1]));
  records = std::move(sorted);
}

// The owner of a key: the keys are hashes, so their high bits spread evenly over the ranks.
int owner_of(const text::DedupKey& key, int ranks) {
  return static_cast<int>((static_cast<unsigned __int128>(key.high) * static_cast<unsigned>(ranks)) >> 64);
}

// Sends each run of pairs with one key (bad lines aside) to the key's owner;
// returns what this rank owns.
std::vector<KeyRecord> route_keys(const boost::mpi::communicator& comm, std::uint64_t first_pair_id,
                                  std::span<const text::DedupKey> keys, std::span<const std::uint8_t> flags) {
  const int ranks = comm.size();
  const auto for_each_run = [&](auto visit) {
    for (std::size_t i = 0; i < keys.size();) {
      if (flags[i] & schema::bad_line) {
        ++i;
        continue;
      }
      std::size_t end = i + 1;
      while (end < keys.size() && !(flags[end] & schema::bad_line) && keys[end] == keys[i]) ++end;
      visit(KeyRecord{keys[i], first_pair_id + i, end - i});
      i = end;
    }
  };
  std::vector<std::size_t> counts(ranks);
  for_each_run([&](const KeyRecord& run) { ++counts[owner_of(run.key, ranks)]; });
  std::vector<std::vector<KeyRecord>> outbox(ranks);
  for (int r = 0; r < ranks; ++r) outbox[r].reserve(counts[r]);
  for_each_run([&](const KeyRecord& run) { outbox[owner_of(run.key, ranks)].push_back(run); });
  return all_to_all(MPI_Comm(comm), outbox).records;
}

}  // namespace

KeyGroups group_keys(const boost::mpi::communicator& comm, std::uint64_t first_pair_id,
                     std::span<const text::DedupKey> keys, std::span<const std::uint8_t> flags,
                     std::span<const text::DedupKey> other_keys, std::span<const std::uint8_t> other_flags) {
  std::vector<text::DedupKey> other;
  {
    std::vector<KeyRecord> owned = route_keys(comm, 0, other_keys, other_flags);
    sort_records(owned);
    other.reserve(owned.size());
    for (const KeyRecord& record : owned)
      if (other.empty() || other.back() != record.key) other.push_back(record.key);
  }
  std::vector<KeyRecord> owned = route_keys(comm, first_pair_id, keys, flags);
  sort_records(owned);
  // Each pair's home: the last rank whose first pair_id is not after it (a rank without pairs shares its first with the next).
  std::vector<std::uint64_t> first_of_rank;
  boost::mpi::all_gather(comm, first_pair_id, first_of_rank);
  const auto home_of = [&](std::uint64_t pair_id) {
    return static_cast<int>(std::upper_bound(first_of_rank.begin(), first_of_rank.end(), pair_id) - first_of_rank.begin() - 1);
  };
  std::vector<std::vector<KeyGroup>> answers(comm.size());
  std::uint64_t counts[2] = {0, 0};  // later copies, pairs in the other set
  for (std::size_t begin = 0; begin < owned.size();) {
    std::size_t end = begin;
    std::uint64_t size = 0;
    for (; end < owned.size() && owned[end].key == owned[begin].key; ++end) size += owned[end].count;
    const bool in_other = std::binary_search(other.begin(), other.end(), owned[begin].key, key_before);
    counts[0] += size - 1;
    if (in_other) counts[1] += size;
    if (size > 1 || in_other)  // the rest are groups of one: the home rank knows them without a word
      for (std::size_t k = begin; k < end; ++k)
        answers[home_of(owned[k].pair_id)].push_back(
            {owned[k].pair_id, owned[begin].pair_id, size, in_other ? 1u : 0u, owned[k].count});
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
