// The word ids of a run (text/vocabulary.hpp): id 0 is the alignment's NULL
// token, words are numbered from 1 in order of first appearance.
#include "tdcone/text/vocabulary.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tdcone::text {
namespace {

TEST(Vocabulary, StartsWithTheNullWordOnly) {
  const Vocabulary vocabulary;
  EXPECT_EQ(vocabulary.size(), 1u);
  EXPECT_EQ(vocabulary.find("word"), kNullWord);
}

TEST(Vocabulary, WordsAreNumberedFromOneInOrderOfFirstAppearance) {
  Vocabulary vocabulary;
  EXPECT_EQ(vocabulary.intern("b"), 1u);
  EXPECT_EQ(vocabulary.intern("a"), 2u);
  EXPECT_EQ(vocabulary.intern("b"), 1u);
  EXPECT_EQ(vocabulary.size(), 3u);
  EXPECT_EQ(vocabulary.word(2), "a");
  EXPECT_EQ(vocabulary.find("a"), 2u);
  EXPECT_EQ(vocabulary.find("c"), kNullWord);
  EXPECT_EQ(vocabulary.size(), 3u);  // find adds nothing
}

TEST(Vocabulary, WordsAreBytesCaseAndAll) {
  Vocabulary vocabulary;
  const WordId lower = vocabulary.intern("straße"), upper = vocabulary.intern("Straße");
  EXPECT_NE(lower, upper);
  EXPECT_EQ(vocabulary.intern(std::string("a\0b", 3)), 3u);
  EXPECT_EQ(vocabulary.find(std::string("a\0c", 3)), kNullWord);
}

TEST(Vocabulary, BytesGrowWithTheWords) {
  Vocabulary vocabulary;
  const std::uint64_t empty = vocabulary.bytes();
  for (int i = 0; i < 1000; ++i) vocabulary.intern("a fairly long word number " + std::to_string(i));
  EXPECT_GT(vocabulary.bytes(), empty + 1000 * 26);
}

}  // namespace
}  // namespace tdcone::text
