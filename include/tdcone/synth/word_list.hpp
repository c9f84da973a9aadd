#pragma once
// The made-up words of a synthetic corpus, by frequency rank.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tdcone::synth {

/// Distinct pronounceable pseudo-words; frequent (low rank) words are shorter.
class WordList {
 public:
  /// `size` words from a random stream of their own (seeded by `seed`), apart from the lines'.
  WordList(std::uint32_t size, std::uint64_t seed);

  std::uint32_t size() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
  /// The word of rank `k`.
  std::string_view word(std::uint32_t k) const {
    return std::string_view(text_).substr(offsets_[k], offsets_[k + 1] - offsets_[k]);
  }
  /// One type in 50 is a "name", always capitalized.
  static bool is_name(std::uint32_t k) { return k % 50 == 17; }
  /// The fixed "synonym" of word k: its neighbour in rank, so of similar frequency.
  std::uint32_t partner(std::uint32_t k) const { return (k ^ 1) < size() ? k ^ 1 : k; }

 private:
  std::string text_;                   // the words, back to back
  std::vector<std::uint32_t> offsets_;  // word k is text_[offsets_[k], offsets_[k + 1])
};

}  // namespace tdcone::synth
