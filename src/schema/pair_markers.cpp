#include "tdcone/schema/pair_markers.hpp"

namespace tdcone::schema {

const std::vector<MarkerBit>& marker_bits() {
  static const std::vector<MarkerBit> bits{
      {src_url, "src_url", "the input has a URL: http://, https:// or www. (any case) at a word start"},
      {src_mention, "src_mention", "the input has an @mention: @ at a word start, then a letter, digit or _"},
      {src_hashtag, "src_hashtag", "the input has a #hashtag: # at a word start, then a letter, digit or _"},
      {src_question, "src_question", "the input ends in ?, trailing white space aside"},
      {tgt_url, "tgt_url", "the output has a URL"},
      {tgt_mention, "tgt_mention", "the output has an @mention"},
      {tgt_hashtag, "tgt_hashtag", "the output has a #hashtag"},
      {tgt_question, "tgt_question", "the output ends in ?"},
      {copy, "copy", "input and output have the same tokens, in order (also both empty)"},
  };
  return bits;
}

}  // namespace tdcone::schema
