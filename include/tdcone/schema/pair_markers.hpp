#pragma once
// The bits of the `markers` column of /pairs (issue 22): what a side's raw
// text holds (URL, @mention, #hashtag, question) and whether the output copies
// the input. Like the flags, new bits are added, never renumbered.
#include <cstdint>
#include <vector>

namespace tdcone::schema {

/// One bit of `markers`. A side's bits are found on its raw text (the field
/// as read, after --reverse). A word start is the side's start or a position
/// after a character that is not a word character (a Unicode letter, mark or
/// number, or `_`).
enum PairMarker : std::uint16_t {
  /// `http://`, `https://` or `www.` (ASCII, any case) at a word start.
  src_url = 1,
  /// `@` at a word start followed by a word character (not an e-mail's `a@b`).
  src_mention = 2,
  /// `#` at a word start followed by a word character (not `C#`).
  src_hashtag = 4,
  /// The text ends in `?`, trailing white space (Unicode White_Space) aside.
  src_question = 8,
  tgt_url = 16,  ///< the same four bits of the output side
  tgt_mention = 32,
  tgt_hashtag = 64,
  tgt_question = 128,
  /// The two sides have the same token sequence (also both empty).
  copy = 256,
};
/// The bits of the output side are those of the input side shifted by this.
inline constexpr int kTgtMarkerShift = 4;

/// A marker bit with its name (the enumerator's) and meaning, for the schema's JSON.
struct MarkerBit {
  PairMarker bit;
  const char* name;
  const char* about;
};
/// Every bit, lowest first.
const std::vector<MarkerBit>& marker_bits();

}  // namespace tdcone::schema
