#include "tdcone/text/diversity_builder.hpp"

#include <algorithm>

namespace tdcone::text {

void DiversityBuilder::side_read(bool input, std::span<const WordId> words, std::string_view text) {
  sides_.push_back({static_cast<std::uint32_t>(words_.size()), static_cast<std::uint32_t>(words.size()),
                    static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(text.size())});
  words_.insert(words_.end(), words.begin(), words.end());
  text_.append(text);
  last_side_[input ? 0 : 1] = static_cast<std::uint32_t>(sides_.size() - 1);
}

void DiversityBuilder::add_pair(std::uint32_t tgt_len, bool same_text) {
  pairs_.push_back({last_side_[0], same_text ? last_side_[0] : last_side_[1], tgt_len});
  if (batch_full()) flush();
}

void DiversityBuilder::add_bad_line() {
  pairs_.push_back({kNone, kNone, 0});
  if (batch_full()) flush();
}

void DiversityBuilder::finish() { flush(); }

void DiversityBuilder::add_row(const Pair& pair) {
  if (pair.input == kNone) {
    out_.add({}, 0, 0);
    return;
  }
  if (indexed_ != pair.input) {  // indexed once for a run of pairs with the same input
    overlap_.set_input(words_of(sides_[pair.input]));
    indexed_ = pair.input;
  }
  const Side &input = sides_[pair.input], &output = sides_[pair.output];
  std::uint16_t markers = input.markers | static_cast<std::uint16_t>(output.markers << schema::kTgtMarkerShift);
  if (std::ranges::equal(words_of(input), words_of(output))) markers |= schema::copy;
  out_.add(overlap_.match(words_of(output)), pair.tgt_len, markers);
}

void DiversityBuilder::flush() {
  text_.append(kMarkerScanSlack, '\0');
  for (Side& side : sides_) side.markers = side_markers(std::string_view(text_).substr(side.first_byte, side.bytes), true);
  text_.resize(text_.size() - kMarkerScanSlack);
  for (const Pair& pair : pairs_) add_row(pair);
  pairs_.clear();
  // Later pairs may repeat the last input and output read: those move to the front, the other sides go.
  std::vector<std::uint32_t> kept;
  for (const std::uint32_t side : last_side_) {
    if (side != kNone && std::ranges::find(kept, side) == kept.end()) kept.push_back(side);
  }
  std::ranges::sort(kept);  // each moves down, never over one still to move
  std::uint32_t words = 0, bytes = 0, indexed = kNone;
  for (std::uint32_t k = 0; k < kept.size(); ++k) {
    Side side = sides_[kept[k]];
    std::copy_n(words_.begin() + side.first_word, side.words, words_.begin() + words);
    std::copy_n(text_.begin() + side.first_byte, side.bytes, text_.begin() + bytes);
    side.first_word = words, side.first_byte = bytes;
    words += side.words, bytes += side.bytes;
    sides_[k] = side;
    for (std::uint32_t& last : last_side_) {
      if (last == kept[k]) last = k;
    }
    if (indexed_ == kept[k]) indexed = k;
  }
  indexed_ = indexed;
  words_.resize(words);
  text_.resize(bytes);
  sides_.resize(kept.size());
}

}  // namespace tdcone::text
