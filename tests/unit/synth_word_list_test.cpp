// The word list of `tdcone synth` (synth/word_list.hpp): distinct words,
// shorter at the top, partners of like rank, the same for the same seed.
#include "tdcone/synth/word_list.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tdcone::synth {
namespace {

TEST(SynthWordList, DistinctWordsShorterAtTheTopWithPartnersOfLikeRank) {
  const WordList words(5000, 3);
  ASSERT_EQ(words.size(), 5000u);
  std::set<std::string> seen;
  double top = 0, tail = 0;
  for (std::uint32_t k = 0; k < words.size(); ++k) {
    EXPECT_TRUE(seen.insert(std::string(words.word(k))).second) << words.word(k);
    (k < 100 ? top : tail) += static_cast<double>(words.word(k).size());
  }
  EXPECT_LT(top / 100, tail / 4900);
  EXPECT_EQ(words.partner(10), 11u);
  EXPECT_EQ(words.partner(11), 10u);
  EXPECT_EQ(WordList(5, 3).partner(4), 4u);  // the last of an odd list has no neighbour
  EXPECT_TRUE(WordList::is_name(17));
  EXPECT_FALSE(WordList::is_name(18));
  const WordList again(5000, 3);
  EXPECT_EQ(again.word(4321), words.word(4321));
}

}  // namespace
}  // namespace tdcone::synth
