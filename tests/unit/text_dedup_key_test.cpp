// Duplicate keys (text/dedup_key.hpp): which pairs are the same under
// --dedup exact, tokens and letters, made while the share is read.
#include "tdcone/text/dedup_key.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tdcone/text/share_builder.hpp"

namespace tdcone::text {
namespace {

// The pair keys of `lines` read in `mode` (punct tokenizer, lowercase: the defaults).
std::vector<DedupKey> pair_keys(DedupMode mode, const std::vector<std::string>& lines) {
  ReadOptions options;
  options.dedup = mode;
  TokenizedShare share;
  Vocabulary vocabulary;
  ShareBuilder builder(share, options, vocabulary);
  for (const auto& line : lines) builder.add({line, false});
  builder.finish();
  EXPECT_EQ(share.pair_keys.size(), lines.size());
  EXPECT_EQ(share.src_keys.size(), lines.size());
  return share.pair_keys;
}

bool same_pair(DedupMode mode, const std::string& a, const std::string& b) {
  const auto keys = pair_keys(mode, {a, b});
  return keys[0] == keys[1];
}

TEST(LettersOnly, KeepsCaseFoldedLettersAndDropsTheRest) {
  std::string out;
  letters_only("Hello, World 42!", out);
  EXPECT_EQ(out, "helloworld");
  letters_only("Straße", out);  // ß folds to ss
  EXPECT_EQ(out, "strasse");
  letters_only("\xC3\x89t\xC3\xA9 \xE2\x80\x94 x_y", out);  // "Été — x_y": é is a letter, the dash and _ are not
  EXPECT_EQ(out, "\xC3\xA9t\xC3\xA9xy");
  letters_only("\xC4\xB0", out);  // İ folds to i and a combining dot (a mark, dropped)
  EXPECT_EQ(out, "i");
  letters_only("12 ?!", out);
  EXPECT_EQ(out, "");
}

TEST(DedupKey, ExactIsTheRawBytesOfBothSides) {
  EXPECT_TRUE(same_pair(DedupMode::exact, "a b\tc", "a b\tc"));
  EXPECT_FALSE(same_pair(DedupMode::exact, "a b\tc", "a  b\tc"));  // one more space
  EXPECT_FALSE(same_pair(DedupMode::exact, "A b\tc", "a b\tc"));   // case
  EXPECT_FALSE(same_pair(DedupMode::exact, "a b\tc", "a\tb c"));   // the sides stay apart
}

TEST(DedupKey, TokensAreTheTokenSequenceOfTheScore) {
  EXPECT_TRUE(same_pair(DedupMode::tokens, "A b!\tc", "a   b !\tC"));  // spacing, case (lowercase is on)
  EXPECT_FALSE(same_pair(DedupMode::tokens, "a b\tc", "b a\tc"));      // a sequence, not a set
  EXPECT_FALSE(same_pair(DedupMode::tokens, "a b\tc", "ab\tc"));       // token boundaries count
  EXPECT_FALSE(same_pair(DedupMode::tokens, "a b\tc", "a\tb c"));      // the sides stay apart
  EXPECT_FALSE(same_pair(DedupMode::tokens, "a b\tc", "a b b\tc"));    // a repeated token counts
}

TEST(DedupKey, LettersAreTheLowercaseLettersOnly) {
  EXPECT_TRUE(same_pair(DedupMode::letters, "a b\tc", "ab\tC"));          // spaces and case go
  EXPECT_TRUE(same_pair(DedupMode::letters, "I'm 2 go!\tok", "im go\tOK"));  // digits, punctuation go
  EXPECT_FALSE(same_pair(DedupMode::letters, "ab\tc", "a\tbc"));           // the sides stay apart
  EXPECT_FALSE(same_pair(DedupMode::letters, "ab\tc", "ba\tc"));           // in order
}

TEST(DedupKey, ASourceKeyIsTheSameForTheSameSourceInEveryMode) {
  for (DedupMode mode : {DedupMode::exact, DedupMode::tokens, DedupMode::letters}) {
    ReadOptions options;
    options.dedup = mode;
    TokenizedShare share;
    Vocabulary vocabulary;
    ShareBuilder builder(share, options, vocabulary);
    builder.add({"a b\tc", false});
    builder.add({"a b\td", false});  // its source repeats (tokenized once: the key must follow)
    builder.add({"x\tc", false});
    builder.add({"no tab", false});  // a bad line: empty keys
    builder.finish();
    ASSERT_EQ(share.src_keys.size(), 4u);
    EXPECT_EQ(share.src_keys[0], share.src_keys[1]);
    EXPECT_NE(share.src_keys[0], share.src_keys[2]);
    EXPECT_NE(share.pair_keys[0], share.pair_keys[1]);
    EXPECT_EQ(share.flags[3], schema::bad_line);
    EXPECT_EQ(share.pair_keys[3], DedupKey{});
  }
}

TEST(DedupKey, NoModeNoKeys) {
  ReadOptions options;
  TokenizedShare share;
  Vocabulary vocabulary;
  ShareBuilder builder(share, options, vocabulary);
  builder.add({"a\tb", false});
  EXPECT_TRUE(share.pair_keys.empty());
  EXPECT_TRUE(share.src_keys.empty());
}

}  // namespace
}  // namespace tdcone::text
