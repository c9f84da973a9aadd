#pragma once
// The lexical diversity of each pair as ShareBuilder reads it: the sides'
// words in order (before they become sorted sets) and raw text, into a
// PairDiversity row per pair.
#include <cstdint>
#include <span>
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
  void add_bad_line() { out_.add({}, 0, 0); }

 private:
  PairDiversity& out_;
  NgramOverlap overlap_;
  std::vector<WordId> words_[2];     // the last input and output read, in order
  std::uint16_t markers_[2] = {};    // their side_markers()
  bool input_indexed_ = false;       // overlap_ holds words_[0]
};

}  // namespace tdcone::text
