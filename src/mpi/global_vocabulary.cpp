#include "tdcone/mpi/global_vocabulary.hpp"

#include <absl/container/flat_hash_map.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string_view>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

int GlobalVocabulary::owner(std::uint32_t global) const {
  const auto after = std::upper_bound(first_id.begin() + 1, first_id.end(), global);
  return static_cast<int>(after - first_id.begin()) - 1;
}

std::uint64_t GlobalVocabulary::count(WordSide side) const {
  return words_with_side[std::countr_zero(static_cast<unsigned>(side))];
}

namespace {

// Wire format of one word: u32 length, u8 side bits, the bytes.
void pack(std::vector<char>& out, std::string_view word, std::uint8_t sides) {
  const auto length = static_cast<std::uint32_t>(word.size());
  const std::size_t at = out.size();
  out.resize(at + 5 + word.size());
  std::memcpy(out.data() + at, &length, 4);
  out[at + 4] = static_cast<char>(sides);
  std::memcpy(out.data() + at + 5, word.data(), word.size());
}

}  // namespace

GlobalVocabulary build_global_vocabulary(MPI_Comm comm, const text::Vocabulary& local,
                                         std::span<const std::uint8_t> sides) {
  int n_ranks = 1, rank = 0;
  MPI_Comm_size(comm, &n_ranks);
  MPI_Comm_rank(comm, &rank);

  // 1. Send every local word to its owner.
  std::vector<std::vector<char>> outbox(n_ranks);
  std::vector<std::vector<text::WordId>> sent_ids(n_ranks);  // to map the replies back
  for (text::WordId id = 1; id < local.size(); ++id) {
    const std::string& word = local.word(id);
    const int owner = static_cast<int>(XXH3_64bits(word.data(), word.size()) % n_ranks);
    pack(outbox[owner], word, sides[id]);
    sent_ids[owner].push_back(id);
  }
  const auto inbox = all_to_all(comm, outbox);

  // 2. The owner numbers distinct words in arrival order and merges side bits.
  absl::flat_hash_map<std::string_view, std::uint32_t> index;
  std::vector<std::uint8_t> owned_sides;
  std::vector<std::vector<std::uint32_t>> reply(n_ranks);
  for (int source = 0; source < n_ranks; ++source) {
    std::size_t at = inbox.offset[source];
    while (at < inbox.offset[source + 1]) {
      std::uint32_t length = 0;
      std::memcpy(&length, inbox.records.data() + at, 4);
      const auto word_sides = static_cast<std::uint8_t>(inbox.records[at + 4]);
      const std::string_view word(inbox.records.data() + at + 5, length);
      at += 5 + length;
      const auto [it, added] = index.try_emplace(word, static_cast<std::uint32_t>(owned_sides.size()));
      if (added) owned_sides.push_back(0);
      owned_sides[it->second] |= word_sides;
      reply[source].push_back(it->second);
    }
  }

  // 3. Global numbering: NULL is 0, then the words of rank 0, rank 1, ...
  GlobalVocabulary result;
  const std::uint64_t owned = owned_sides.size();
  std::vector<std::uint64_t> owned_by_rank(n_ranks);
  MPI_Allgather(&owned, 1, MPI_UINT64_T, owned_by_rank.data(), 1, MPI_UINT64_T, comm);
  result.first_id.assign(n_ranks + 1, 1);
  for (int r = 0; r < n_ranks; ++r)
    result.first_id[r + 1] = result.first_id[r] + static_cast<std::uint32_t>(owned_by_rank[r]);
  const std::uint32_t my_first = result.first_id[rank];
  for (auto& ids : reply)
    for (auto& id : ids) id += my_first;

  std::array<std::uint64_t, 8> mine{};
  for (std::uint8_t s : owned_sides)
    for (int bit = 0; bit < 8; ++bit) mine[bit] += (s >> bit) & 1u;
  MPI_Allreduce(mine.data(), result.words_with_side.data(), 8, MPI_UINT64_T, MPI_SUM, comm);

  // 4. Tell every rank the global ids of the words it sent.
  const auto answers = all_to_all(comm, reply);
  result.global_id.assign(local.size(), 0);
  for (int owner = 0; owner < n_ranks; ++owner)
    for (std::size_t k = 0; k < sent_ids[owner].size(); ++k)
      result.global_id[sent_ids[owner][k]] = answers.records[answers.offset[owner] + k];
  return result;
}

}  // namespace tdcone::mpi
