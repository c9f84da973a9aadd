#pragma once
// The keys that tell duplicate pairs apart (tdcone score --dedup): a 128-bit
// hash (XXH3_128) of each side, made while the side is read, in one of three
// modes. A pair's key combines its two side keys, so that the sides stay
// apart ("a b|c" and "a|b c" differ). Grouping the keys over the ranks is
// mpi/key_groups.hpp's.
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/text/vocabulary.hpp"

namespace tdcone::text {

/// What makes two sides the same (--dedup).
enum class DedupMode {
  none,     ///< no keys
  exact,    ///< the raw bytes of the side (as scored: after --reverse)
  tokens,   ///< its token sequence (the score's tokenizer options)
  letters,  ///< its letters only, case-folded (OpusFilter's letters-only key)
};

/// A 128-bit hash; ordered, so that keys sort.
struct DedupKey {
  std::uint64_t high = 0, low = 0;
  auto operator<=>(const DedupKey&) const = default;
};

/// Makes side keys in one mode; keeps buffers between calls.
class DedupKeyMaker {
 public:
  explicit DedupKeyMaker(DedupMode mode) : mode_(mode) {}

  /// The key of one side: in modes exact and letters from its `text` (valid
  /// UTF-8); in mode tokens from the 64-bit hashes of its `words` words in
  /// order, those `vocabulary` made in its last span intern() (of this side's
  /// tokens), so the same for the same tokens on any rank.
  DedupKey side_key(std::string_view text, const Vocabulary& vocabulary, std::size_t words);

  /// The key of a pair from its two side keys.
  static DedupKey pair_key(const DedupKey& src, const DedupKey& tgt);

 private:
  DedupMode mode_;
  std::string letters_;                     // mode letters: the text's letters
  std::vector<std::uint64_t> word_hashes_;  // mode tokens: a side's words' hashes, in order
};

/// The letters of `text` (Unicode categories L*), case-folded, in order:
/// everything else (digits, spaces, punctuation, marks) is dropped. Into `out`.
void letters_only(std::string_view text, std::string& out);

}  // namespace tdcone::text
