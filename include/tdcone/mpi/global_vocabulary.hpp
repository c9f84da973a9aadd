#pragma once
// Global word ids shared by all ranks, without any rank holding all words.
#include <mpi.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/text/vocabulary.hpp"

namespace tdcone::mpi {

/// Bits saying where a word was seen (the counts of §3 need the corpus sides;
/// a reference set adds its own sides).
enum WordSide : std::uint8_t {
  corpus_input = 1,
  corpus_output = 2,
  reference_input = 4,
  reference_output = 8,
};

struct GlobalVocabulary {
  /// Per local word id: its global id (NULL stays 0).
  std::vector<std::uint32_t> global_id;
  /// Global ids [first_id[r], first_id[r+1]) are owned by rank r; rank 0 also owns NULL (0).
  std::vector<std::uint32_t> first_id;
  /// Number of distinct words (over all ranks) whose side bits include bit b.
  std::array<std::uint64_t, 8> words_with_side{};

  int owner(std::uint32_t global) const;
  std::uint64_t count(WordSide side) const;
};

/// Words are owned by hash(word) mod n_ranks; each owner numbers the words it
/// receives. `sides[id]` are the WordSide bits of local word `id`.
/// Collective.
GlobalVocabulary build_global_vocabulary(MPI_Comm comm, const text::Vocabulary& local,
                                         std::span<const std::uint8_t> sides);

}  // namespace tdcone::mpi
