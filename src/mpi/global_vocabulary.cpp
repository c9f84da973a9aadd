#include "tdcone/mpi/global_vocabulary.hpp"

#include <absl/container/flat_hash_map.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

int GlobalVocabulary::owner(std::uint32_t global) const {
  const auto after = std::upper_bound(first_id.begin() + 1, first_id.end(), global);
  return static_cast<int>(after - first_id.begin()) - 1;
}

std::vector<std::uint64_t> GlobalVocabulary::count(
    MPI_Comm comm, std::size_t n, const std::function<bool(std::span<const std::uint64_t>, std::size_t)>& counts) const {
  std::vector<std::uint64_t> mine(n, 0), total(n, 0);
  for (std::size_t w = 0; w < owned_count(); ++w)
    for (std::size_t k = 0; k < n; ++k) mine[k] += counts(marks(w), k) ? 1 : 0;
  MPI_Allreduce(mine.data(), total.data(), static_cast<int>(n), MPI_UINT64_T, MPI_SUM, comm);
  return total;
}

std::uint64_t GlobalVocabulary::count(MPI_Comm comm, unsigned bit) const {
  return count(comm, 1, [bit](std::span<const std::uint64_t> m, std::size_t) { return WordMarks::test(m, bit); })[0];
}

namespace {

// Words go to owners by a hash, which spreads them evenly but not their
// rows' work: a few frequent input words carry much of the cell updates.
// Each of kPlacements seeds spreads the words differently; the one whose
// busiest owner has the least work places them. Only the heavy words are
// weighed: the many light ones even out under any seed.
constexpr std::uint64_t kPlacements = 64;
constexpr std::uint64_t kHeavyShare = 1u << 16;  // a heavy word has at least 1/kHeavyShare of the rank's work

// The owner of the word of hash `hash` under placement `seed`: a mix of
// both (splitmix64's finalizer) scaled to [0, n_ranks) without a division.
int owner_of(std::uint64_t hash, std::uint64_t seed, int n_ranks) {
  std::uint64_t z = hash + (seed + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<int>((static_cast<unsigned __int128>(z) * static_cast<unsigned>(n_ranks)) >> 64);
}

// The seed whose busiest owner gets the least of the heavy words' work,
// summed over all ranks (the lowest such seed: every rank picks the same).
std::uint64_t pick_placement(MPI_Comm comm, std::span<const std::uint64_t> hashes, std::span<const std::uint64_t> work,
                             int n_ranks) {
  std::uint64_t mine = 0;
  for (std::uint64_t w : work) mine += w;
  const std::uint64_t heavy = std::max<std::uint64_t>(1, mine / kHeavyShare);
  std::vector<std::uint64_t> by_owner(kPlacements * n_ranks, 0), total(by_owner.size(), 0);
  for (std::size_t id = 1; id < work.size(); ++id) {
    if (work[id] < heavy) continue;
    for (std::uint64_t seed = 0; seed < kPlacements; ++seed)
      by_owner[seed * n_ranks + owner_of(hashes[id], seed, n_ranks)] += work[id];
  }
  MPI_Allreduce(by_owner.data(), total.data(), static_cast<int>(total.size()), MPI_UINT64_T, MPI_SUM, comm);
  std::uint64_t best = 0, least = std::numeric_limits<std::uint64_t>::max();
  for (std::uint64_t seed = 0; seed < kPlacements; ++seed) {
    const auto first = total.begin() + static_cast<std::ptrdiff_t>(seed * n_ranks);
    const std::uint64_t busiest = *std::max_element(first, first + n_ranks);
    if (busiest < least) {
      least = busiest;
      best = seed;
    }
  }
  return best;
}

// Wire format of one word: u32 length, the marks, the bytes.
void pack(std::vector<char>& out, std::string_view word, std::span<const std::uint64_t> marks) {
  const auto length = static_cast<std::uint32_t>(word.size());
  const std::size_t at = out.size(), mark_bytes = marks.size_bytes();
  out.resize(at + 4 + mark_bytes + word.size());
  std::memcpy(out.data() + at, &length, 4);
  std::memcpy(out.data() + at + 4, marks.data(), mark_bytes);
  std::memcpy(out.data() + at + 4 + mark_bytes, word.data(), word.size());
}

}  // namespace

GlobalVocabulary build_global_vocabulary(MPI_Comm comm, const text::Vocabulary& local, const WordMarks& marks,
                                         std::span<const std::uint64_t> row_work) {
  int n_ranks = 1, rank = 0;
  MPI_Comm_size(comm, &n_ranks);
  MPI_Comm_rank(comm, &rank);
  const std::size_t width = marks.width(), mark_bytes = width * sizeof(std::uint64_t);

  // 1. Send every local word to its owner.
  std::vector<std::uint64_t> hashes(local.size(), 0);
  for (text::WordId id = 1; id < local.size(); ++id) hashes[id] = XXH3_64bits(local.word(id).data(), local.word(id).size());
  std::uint64_t seed = 0;
  if (n_ranks > 1) seed = pick_placement(comm, hashes, row_work, n_ranks);  // collective whatever the work
  std::vector<std::vector<char>> outbox(n_ranks);
  std::vector<std::vector<text::WordId>> sent_ids(n_ranks);  // to map the replies back
  for (text::WordId id = 1; id < local.size(); ++id) {
    const std::string_view word = local.word(id);
    const int owner = owner_of(hashes[id], seed, n_ranks);
    pack(outbox[owner], word, marks.of(id));
    sent_ids[owner].push_back(id);
  }
  const auto inbox = all_to_all(comm, outbox);

  // 2. The owner numbers distinct words in arrival order and merges their marks.
  GlobalVocabulary result;
  result.mark_width = width;
  absl::flat_hash_map<absl::string_view, std::uint32_t> index;
  std::vector<std::vector<std::uint32_t>> reply(n_ranks);
  std::vector<std::uint64_t> incoming(width);
  for (int source = 0; source < n_ranks; ++source) {
    std::size_t at = inbox.offset[source];
    while (at < inbox.offset[source + 1]) {
      std::uint32_t length = 0;
      std::memcpy(&length, inbox.records.data() + at, 4);
      std::memcpy(incoming.data(), inbox.records.data() + at + 4, mark_bytes);
      const absl::string_view word(inbox.records.data() + at + 4 + mark_bytes, length);
      at += 4 + mark_bytes + length;
      const auto [it, added] = index.try_emplace(word, static_cast<std::uint32_t>(result.owned_count()));
      if (added) result.owned_marks.resize(result.owned_marks.size() + width, 0);
      for (std::size_t k = 0; k < width; ++k) result.owned_marks[it->second * width + k] |= incoming[k];
      reply[source].push_back(it->second);
    }
  }

  // 3. Global numbering: NULL is 0, then the words of rank 0, rank 1, ...
  const std::uint64_t owned = result.owned_count();
  std::vector<std::uint64_t> owned_by_rank(n_ranks);
  MPI_Allgather(&owned, 1, MPI_UINT64_T, owned_by_rank.data(), 1, MPI_UINT64_T, comm);
  result.first_id.assign(n_ranks + 1, 1);
  for (int r = 0; r < n_ranks; ++r)
    result.first_id[r + 1] = result.first_id[r] + static_cast<std::uint32_t>(owned_by_rank[r]);
  for (auto& ids : reply)
    for (auto& id : ids) id += result.first_id[rank];

  // 4. Tell every rank the global ids of the words it sent.
  const auto answers = all_to_all(comm, reply);
  result.global_id.assign(local.size(), 0);
  for (int owner = 0; owner < n_ranks; ++owner)
    for (std::size_t k = 0; k < sent_ids[owner].size(); ++k)
      result.global_id[sent_ids[owner][k]] = answers.records[answers.offset[owner] + k];
  return result;
}

}  // namespace tdcone::mpi
