#pragma once
// Global word ids shared by all ranks, without any rank holding all words.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tdcone/text/vocabulary.hpp"

namespace tdcone::mpi {

/// Per local word, a fixed-width bitset saying where the word was seen. The
/// owner of a word ORs the marks of all ranks, so counts of distinct words
/// with given marks (|V_y| of a subset, of a subset ∪ reference) need no
/// traffic per matrix cell.
class WordMarks {
 public:
  // Fixed bits (with_vector: the word has a vector in --embeddings); bit
  // group_output(g) marks an output word of pair group g.
  static constexpr unsigned corpus_input = 0, corpus_output = 1, reference_input = 2, reference_output = 3,
                            with_vector = 4;
  static constexpr unsigned fixed_bits = 5;
  static constexpr unsigned group_output(std::size_t group) { return fixed_bits + static_cast<unsigned>(group); }

  WordMarks(std::size_t words, std::size_t groups)
      : width_((fixed_bits + groups + 63) / 64), bits_(words * width_, 0) {}

  void resize(std::size_t words) { bits_.resize(words * width_, 0); }
  void set(text::WordId word, unsigned bit) { bits_[word * width_ + bit / 64] |= std::uint64_t{1} << (bit % 64); }
  std::size_t width() const { return width_; }
  std::span<const std::uint64_t> of(text::WordId word) const { return {bits_.data() + word * width_, width_}; }

  static bool test(std::span<const std::uint64_t> marks, unsigned bit) { return (marks[bit / 64] >> (bit % 64)) & 1u; }

 private:
  std::size_t width_;
  std::vector<std::uint64_t> bits_;
};

struct GlobalVocabulary {
  /// Per local word id: its global id (NULL stays 0).
  std::vector<std::uint32_t> global_id;
  /// Global ids [first_id[r], first_id[r+1]) are owned by rank r; rank 0 also owns NULL (0).
  std::vector<std::uint32_t> first_id;
  /// Merged marks of the words this rank owns, `mark_width` words each.
  std::size_t mark_width = 1;
  std::vector<std::uint64_t> owned_marks;

  int owner(std::uint32_t global) const;
  std::size_t owned_count() const { return owned_marks.size() / mark_width; }
  std::span<const std::uint64_t> marks(std::size_t owned) const {
    return {owned_marks.data() + owned * mark_width, mark_width};
  }
  /// For each of `n` counters, the number of distinct words (all ranks) whose
  /// marks make `counts(marks, k)` true. Collective.
  std::vector<std::uint64_t> count(MPI_Comm comm, std::size_t n,
                                   const std::function<bool(std::span<const std::uint64_t>, std::size_t)>& counts) const;
  /// Words with one mark bit. Collective.
  std::uint64_t count(MPI_Comm comm, unsigned bit) const;
};

/// Words are owned by a hash of the word; each owner numbers the words it
/// receives and merges their marks. `row_work` (per local word, or empty:
/// none known here) is the work of each word's row here, summed over all
/// ranks to pick, of several hashes, the one that evens out the owners' work.
/// Collective.
GlobalVocabulary build_global_vocabulary(MPI_Comm comm, const text::Vocabulary& local, const WordMarks& marks,
                                         std::span<const std::uint64_t> row_work = {});

}  // namespace tdcone::mpi
