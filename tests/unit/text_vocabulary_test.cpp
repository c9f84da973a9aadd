// The word ids of a run (text/vocabulary.hpp): id 0 is the alignment's NULL
// token, words are numbered from 1 in order of first appearance.
#include "tdcone/text/vocabulary.hpp"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "guarded_page.hpp"

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

TEST(Vocabulary, WordsDifferingInAnyOneByteAreDifferentWords) {
  Vocabulary vocabulary;
  std::vector<std::string> words;
  for (std::size_t n = 1; n <= 40; ++n) {
    words.emplace_back(n, 'a');
    for (std::size_t at = 0; at < n; ++at) {
      words.emplace_back(n, 'a');
      words.back()[at] = 'b';
    }
  }
  for (std::size_t k = 0; k < words.size(); ++k) EXPECT_EQ(vocabulary.intern(words[k]), k + 1) << words[k];
  for (std::size_t k = 0; k < words.size(); ++k) {
    EXPECT_EQ(vocabulary.find(words[k]), k + 1) << words[k];
    EXPECT_EQ(vocabulary.word(static_cast<WordId>(k + 1)), words[k]);
  }
}

TEST(Vocabulary, ASentenceAtOnceGivesTheIdsOfOneWordAtATime) {
  Vocabulary at_once, one_by_one;
  std::vector<std::string> text;
  for (int i = 0; i < 5000; ++i) text.push_back(std::to_string(i * 7919 % 3001).append("w"));  // repeats; the table grows
  std::vector<std::string_view> sentence(text.begin(), text.end());
  std::vector<WordId> ids{99};
  at_once.intern(sentence, ids);
  ASSERT_EQ(ids.size(), text.size() + 1);
  EXPECT_EQ(ids[0], 99u);  // appended
  for (std::size_t k = 0; k < text.size(); ++k) EXPECT_EQ(ids[k + 1], one_by_one.intern(text[k]));
  EXPECT_EQ(at_once.size(), one_by_one.size());
}

// A short word is read eight bytes at once where its page allows; one that
// ends its page (the bytes after it unreadable) is read byte by byte. Either
// way, at every place near a page's end, a word has the id of its copy.
TEST(Vocabulary, AWordAtTheEndOfItsPageIsTheSameWord) {
  const test_support::GuardedPage page;
  Vocabulary vocabulary;
  std::vector<std::string> copies;
  for (std::size_t n = 1; n <= 12; ++n)
    for (std::size_t before_end = n; before_end <= n + 9; ++before_end) {
      char* at = page.before_end(before_end);
      for (std::size_t k = 0; k < n; ++k) at[k] = static_cast<char>('a' + (n + k) % 26);
      copies.emplace_back(at, n);
      std::vector<WordId> ids;
      const std::string_view word(at, n);
      vocabulary.intern(std::span<const std::string_view>(&word, 1), ids);
      EXPECT_EQ(ids[0], vocabulary.find(copies.back())) << "length " << n << ", " << before_end << " bytes before the page's end";
      EXPECT_EQ(vocabulary.word(ids[0]), copies.back());
    }
  EXPECT_EQ(vocabulary.size(), 1 + 12);  // one word a length
}

TEST(Vocabulary, BytesGrowWithTheWords) {
  Vocabulary vocabulary;
  const std::uint64_t empty = vocabulary.bytes();
  for (int i = 0; i < 1000; ++i) vocabulary.intern("a fairly long word number " + std::to_string(i));
  EXPECT_GT(vocabulary.bytes(), empty + 1000 * 26);
}

}  // namespace
}  // namespace tdcone::text
