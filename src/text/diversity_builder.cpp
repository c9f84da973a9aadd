#include "tdcone/text/diversity_builder.hpp"

#include <algorithm>

namespace tdcone::text {

void DiversityBuilder::side_read(bool input, std::span<const WordId> words, std::string_view text) {
  const int side = input ? 0 : 1;
  words_[side].assign(words.begin(), words.end());
  markers_[side] = side_markers(text);
  if (input) input_indexed_ = false;
}

void DiversityBuilder::add_pair(std::uint32_t tgt_len, bool same_text) {
  if (!input_indexed_) {  // indexed once for a run of pairs with the same input
    overlap_.set_input(words_[0]);
    input_indexed_ = true;
  }
  const std::vector<WordId>& output = same_text ? words_[0] : words_[1];
  const std::uint16_t output_markers = same_text ? markers_[0] : markers_[1];
  std::uint16_t markers = markers_[0] | static_cast<std::uint16_t>(output_markers << schema::kTgtMarkerShift);
  if (std::ranges::equal(words_[0], output)) markers |= schema::copy;
  out_.add(overlap_.match(output), tgt_len, markers);
}

}  // namespace tdcone::text
