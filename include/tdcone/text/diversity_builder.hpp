#pragma once
// The lexical diversity of each pair as ShareBuilder reads it: the sides'
// words in order (before they become sorted sets) and raw text, into a
// PairDiversity row per pair.
//
// The rows are made in batches of pairs, after the batch's sides were read:
// interleaved with tokenizing and interning pair by pair, the marker scan and
// the n-gram matching pushed the read loop's code out of the instruction cache.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/text/lexical_diversity.hpp"

namespace tdcone::text {

class DiversityBuilder {
 public:
  explicit DiversityBuilder(PairDiversity& out) : out_(out) {}

  /// A side was tokenized: its words in order and its raw text (after --reverse).
  void side_read(bool input, std::span<const WordId> words, std::string_view text);
  /// Adds the row of a pair whose sides were read (a side not read anew
  /// repeats the last one of that side; `same_text`: the output is the input).
  void add_pair(std::uint32_t tgt_len, bool same_text);
  /// Adds the row of a bad line: no matches, no markers.
  void add_bad_line();
  /// Makes the rows of the pairs added so far; after the last pair.
  void finish();

 private:
  // A batch: 256 pairs, fewer when their text passes 1 MiB (long lines; the
  // offsets in it then stay within 32 bits, lines being at most 1 GiB).
  static constexpr std::size_t kBatchPairs = 256, kBatchBytes = std::size_t{1} << 20;
  static constexpr std::uint32_t kNone = ~0u;  // no side

  struct Side {
    std::uint32_t first_word, words;  // in words_
    std::uint32_t first_byte, bytes;  // in text_
    std::uint16_t markers = 0;
  };
  struct Pair {
    std::uint32_t input, output;  // sides; kNone for a bad line
    std::uint32_t tgt_len;
  };
  std::span<const WordId> words_of(const Side& side) const { return {words_.data() + side.first_word, side.words}; }
  bool batch_full() const { return pairs_.size() == kBatchPairs || text_.size() > kBatchBytes; }
  void add_row(const Pair& pair);
  // Makes the batch's rows; the next batch starts with the last sides read.
  void flush();

  PairDiversity& out_;
  NgramOverlap overlap_;
  // The batch: its sides' words and text, its sides and pairs.
  std::vector<WordId> words_;
  std::string text_;
  std::vector<Side> sides_;
  std::vector<Pair> pairs_;
  std::uint32_t last_side_[2] = {kNone, kNone};  // the last input and output read
  std::uint32_t indexed_ = kNone;                // the side overlap_ holds
};

}  // namespace tdcone::text
