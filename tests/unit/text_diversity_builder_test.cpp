// The rows of PairDiversity as DiversityBuilder makes them from the sides a
// reader gives it (text/diversity_builder.hpp), by hand: clipped n-gram
// matches, the markers of each side (the output's shifted), the copy bit, a
// repeated input, bad lines, and pairs across its batches.
#include "tdcone/text/diversity_builder.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tdcone::text {
namespace {

using namespace schema;  // the PairMarker bits

struct Rows {
  PairDiversity out;
  DiversityBuilder builder{out};
  void input(std::vector<WordId> words, std::string_view text) { builder.side_read(true, words, text); }
  void output(std::vector<WordId> words, std::string_view text) { builder.side_read(false, words, text); }
  NgramMatches matches(std::size_t i, std::uint32_t tgt_len) const { return out.matches(i, tgt_len); }
  std::uint16_t markers(std::size_t i) const { return out.markers()[i]; }
};

TEST(DiversityBuilder, RowsOfPairsByHand) {
  Rows r;
  // "a b c a" -> "a b a b": the input's 2-grams are a b, b c, c a.
  r.input({1, 2, 3, 1}, "a b c a");
  r.output({1, 2, 1, 2}, "a b a b?");
  r.builder.add_pair(4, false);
  r.builder.add_bad_line();
  // The same input again, not read anew: "c" -> "c a @x".
  r.output({3, 1, 5}, "c a @x");
  r.builder.add_pair(3, false);
  // An output that is the input's text.
  r.input({6, 7}, "#d e");
  r.builder.add_pair(2, true);
  r.builder.finish();
  ASSERT_EQ(r.out.size(), 4u);
  // m_1: a 2 (twice in both), b 1 (clipped to the input's one); m_2: a b
  // once (clipped), b a not in the input.
  EXPECT_EQ(r.matches(0, 4), (NgramMatches{3, 1, 0, 0}));
  EXPECT_EQ(r.markers(0), tgt_question);
  EXPECT_EQ(r.matches(1, 0), (NgramMatches{}));
  EXPECT_EQ(r.markers(1), 0);
  EXPECT_EQ(r.matches(2, 3), (NgramMatches{2, 1, 0, 0}));  // c, a; c a
  EXPECT_EQ(r.markers(2), tgt_mention);
  EXPECT_EQ(r.matches(3, 2), (NgramMatches{2, 1, 0, 0}));
  EXPECT_EQ(r.markers(3), src_hashtag | tgt_hashtag | copy);
}

// The same token sequence is a copy whatever the text; a reordering is not.
TEST(DiversityBuilder, ACopyIsTheSameTokenSequence) {
  Rows r;
  r.input({1, 2}, "A b");
  r.output({1, 2}, "a  b");
  r.builder.add_pair(2, false);
  r.output({2, 1}, "b a");
  r.builder.add_pair(2, false);
  r.builder.finish();
  EXPECT_EQ(r.markers(0), copy);
  EXPECT_EQ(r.markers(1), 0);
  EXPECT_EQ(r.matches(1, 2), (NgramMatches{2, 0, 0, 0}));
}

// An input read once and repeated by 600 pairs, over three batches of 256,
// with an output read anew for every other pair: each row as if alone.
TEST(DiversityBuilder, ARepeatedInputOutlivesItsBatch) {
  Rows r;
  r.input({1, 2, 3}, "http://a b c");
  for (int i = 0; i < 600; ++i) {
    if (i % 2 == 0) r.output({2, 3}, "b c");
    r.builder.add_pair(2, false);
  }
  r.builder.finish();
  ASSERT_EQ(r.out.size(), 600u);
  for (std::size_t i = 0; i < 600; ++i) {
    ASSERT_EQ(r.matches(i, 2), (NgramMatches{2, 1, 0, 0})) << "pair " << i;
    ASSERT_EQ(r.markers(i), src_url) << "pair " << i;
  }
}

}  // namespace
}  // namespace tdcone::text
