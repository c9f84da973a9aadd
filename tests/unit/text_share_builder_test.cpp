// The tables of one rank's pairs (text/share_builder.hpp, tokenized_share.hpp):
// each line a pair of sorted word-type sets; bad lines flagged with empty
// sides; labels handed on to an interner, text knowing nothing of them.
#include "tdcone/text/share_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tdcone::text {
namespace {

ReadOptions whitespace_tsv() {
  ReadOptions options;
  options.tokenizer.kind = TokenizerKind::whitespace;
  return options;
}

ReadOptions whitespace_tsv_with_counts() {
  ReadOptions options = whitespace_tsv();
  options.keep_counts = true;
  return options;
}

std::vector<std::string> words(const Vocabulary& vocabulary, std::span<const WordId> ids) {
  std::vector<std::string> out;
  for (WordId id : ids) out.emplace_back(vocabulary.word(id));
  return out;
}

TEST(ShareBuilder, APairIsTwoSortedSetsOfTypesWithTokenCounts) {
  TokenizedShare share;
  Vocabulary vocabulary;
  const ReadOptions options = whitespace_tsv();
  ShareBuilder builder(share, options, vocabulary);
  EXPECT_EQ(builder.add({"b a b\tc c", false}), "");
  builder.finish();
  ASSERT_EQ(share.size(), 1u);
  EXPECT_EQ(share.flags[0], 0);
  EXPECT_EQ(share.src_len[0], 3u);
  EXPECT_EQ(share.tgt_len[0], 2u);
  EXPECT_EQ(words(vocabulary, share.src_types(0)), (std::vector<std::string>{"b", "a"}));  // by id: b came first
  EXPECT_EQ(words(vocabulary, share.tgt_types(0)), (std::vector<std::string>{"c"}));
  EXPECT_TRUE(share.type_counts.empty());  // only with keep_counts
}

TEST(ShareBuilder, KeepCountsKeepsOccurrencesAndHashes) {
  TokenizedShare share;
  Vocabulary vocabulary;
  const ReadOptions options = whitespace_tsv_with_counts();
  ShareBuilder builder(share, options, vocabulary);
  builder.add({"x y x\tx y x", false});
  EXPECT_EQ(share.type_counts, (std::vector<std::uint32_t>{2, 1, 2, 1}));
  ASSERT_EQ(share.src_hash.size(), 1u);
  EXPECT_EQ(share.src_hash[0], share.tgt_hash[0]);  // the same text
}

TEST(ShareBuilder, ARepeatedSentenceHasTheTypesAndCountsOfItsFirstTime) {
  TokenizedShare share;
  Vocabulary vocabulary;
  const ReadOptions options = whitespace_tsv_with_counts();
  ShareBuilder builder(share, options, vocabulary);
  builder.add({"q p q	r", false});
  builder.add({"only one column", false});  // a bad line between: the repeat still holds
  builder.add({"q p q	s r s", false});
  builder.add({"q p q x	s r s", false});
  ASSERT_EQ(share.size(), 4u);
  for (std::size_t i : {0u, 2u}) {
    EXPECT_EQ(words(vocabulary, share.src_types(i)), (std::vector<std::string>{"q", "p"}));
    EXPECT_EQ(share.src_len[i], 3u);
  }
  EXPECT_EQ(words(vocabulary, share.tgt_types(3)), (std::vector<std::string>{"r", "s"}));
  EXPECT_EQ(words(vocabulary, share.src_types(3)), (std::vector<std::string>{"q", "p", "x"}));
  EXPECT_EQ(share.src_hash[0], share.src_hash[2]);
  // A repeated side is the types (and counts) of its first time, not a copy.
  EXPECT_EQ(share.type_start[4], share.type_start[0]);  // pair 2's input is pair 0's
  EXPECT_EQ(share.type_start[7], share.type_start[5]);  // pair 3's output is pair 2's
  // counts as stored: pair 0 (q 2, p 1 | r 1), pair 2 (| r 1, s 2), pair 3 (q 2, p 1, x 1 |)
  EXPECT_EQ(share.type_counts, (std::vector<std::uint32_t>{2, 1, 1, 1, 2, 2, 1, 1}));
}

TEST(ShareBuilder, LongAndShortSentencesGiveSortedUniqueTypes) {
  TokenizedShare share;
  Vocabulary vocabulary;
  const ReadOptions options = whitespace_tsv_with_counts();
  ShareBuilder builder(share, options, vocabulary);
  std::string words_in_order, src;
  for (int i = 0; i < 40; ++i) words_in_order.append("w").append(std::to_string(i)).append(" ");
  builder.add({words_in_order + "	x", false});  // ids 1..40 in that order
  for (int i = 0; i < 100; ++i) src.append("w").append(std::to_string((i * 37) % 40)).append(" ");
  for (const std::string& text : {src, src.substr(0, 60)}) {
    builder.add({text + "	x", false});
    const std::size_t pair = share.size() - 1;
    const auto types = share.src_types(pair);
    EXPECT_TRUE(std::is_sorted(types.begin(), types.end()));
    EXPECT_EQ(std::adjacent_find(types.begin(), types.end()), types.end());
    std::uint32_t tokens = 0;
    for (std::uint64_t k = share.type_start[2 * pair]; k < share.type_end(2 * pair); ++k) tokens += share.type_counts[k];
    EXPECT_EQ(tokens, share.src_len[pair]);
  }
}

// Every sentence length around the short sort's blocks of eight (and past
// its 64), with repeated words: the types are the sentence's set of ids, in
// order, each with its count (or without counts, as most jobs read them).
class EverySentenceLength : public ::testing::TestWithParam<bool> {};

TEST_P(EverySentenceLength, GivesTheSortedSetOfItsIds) {
  TokenizedShare share;
  Vocabulary vocabulary;
  const bool counts = GetParam();
  const ReadOptions options = counts ? whitespace_tsv_with_counts() : whitespace_tsv();
  ShareBuilder builder(share, options, vocabulary);
  std::uint32_t state = 12345;
  for (std::size_t length = 1; length <= 72; ++length)
    for (int sentence = 0; sentence < 20; ++sentence) {
      std::string src;
      std::vector<std::string> tokens;
      for (std::size_t k = 0; k < length; ++k) {
        state = state * 1664525u + 1013904223u;
        tokens.push_back(std::string("w").append(std::to_string((state >> 8) % (sentence % 2 ? 12 : 1000))));
        src += tokens.back() + " ";
      }
      builder.add({src + "\tx", false});
      const std::size_t pair = share.size() - 1;
      std::map<WordId, std::uint32_t> expected;
      for (const std::string& token : tokens) ++expected[vocabulary.find(token)];
      const auto types = share.src_types(pair);
      ASSERT_EQ(types.size(), expected.size()) << "length " << length;
      std::size_t k = 0;
      for (const auto& [id, count] : expected) {
        EXPECT_EQ(types[k], id) << "length " << length;
        if (counts) {
          EXPECT_EQ(share.type_counts[share.type_start[2 * pair] + k], count) << "length " << length;
        }
        ++k;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(ShareBuilder, EverySentenceLength, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "WithCounts" : "WithoutCounts"; });

TEST(ShareBuilder, ABadLineIsFlaggedWithEmptySides) {
  TokenizedShare share;
  Vocabulary vocabulary;
  ReadOptions options = whitespace_tsv();
  options.max_line_bytes = 100;
  ShareBuilder builder(share, options, vocabulary);
  EXPECT_EQ(builder.add({"only one column", false}), "missing column 2");
  EXPECT_EQ(builder.add({"", true}), "line longer than --max-line-bytes (100)");
  ASSERT_EQ(share.size(), 2u);
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{schema::bad_line, schema::bad_line}));
  EXPECT_TRUE(share.src_types(1).empty());
  EXPECT_TRUE(share.tgt_types(1).empty());
}

// No number stands in for a bad line's score: NaN, which no threshold or filter passes.
TEST(ShareBuilder, ABadLinesScoreIsNaN) {
  TokenizedShare share;
  Vocabulary vocabulary;
  ReadOptions options = whitespace_tsv();
  options.fields.score_col = 3;
  ShareBuilder builder(share, options, vocabulary);
  EXPECT_EQ(builder.add({"a\tb\t0.25", false}), "");
  for (const char* bad : {"a\tb\tnan", "a\tb\tinf", "a\tb\t-inf", "a\tb\t1e309", "a\tb\t", "", "a\tb"})
    EXPECT_NE(builder.add({bad, false}), "") << bad;
  EXPECT_EQ(builder.add({"c\td\t0", false}), "");
  builder.finish();
  ASSERT_EQ(share.scores.size(), 9u);
  EXPECT_EQ(share.scores.front(), 0.25);
  EXPECT_EQ(share.scores.back(), 0.0);
  for (std::size_t i = 1; i < 8; ++i) {
    EXPECT_EQ(share.flags[i], schema::bad_line) << i;
    EXPECT_TRUE(std::isnan(share.scores[i])) << i << ": " << share.scores[i];
  }
}

TEST(ShareBuilder, AParallelPairSaysWhichSideIsBad) {
  TokenizedShare share;
  Vocabulary vocabulary;
  const ReadOptions options = whitespace_tsv();
  ShareBuilder builder(share, options, vocabulary);
  bool tgt_side = true;
  EXPECT_EQ(builder.add_pair({"a b", false}, {"c", false}, tgt_side), "");
  EXPECT_FALSE(tgt_side);
  EXPECT_NE(builder.add_pair({"a", false}, {"", true}, tgt_side), "");
  EXPECT_TRUE(tgt_side);
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{0, schema::bad_line}));
}

// An interner that numbers every value 7 and refuses "bad".
class SevenInterner final : public LabelInterner {
 public:
  std::string add(std::span<const std::string_view> raw, std::vector<std::uint32_t>& ids) override {
    if (raw[0] == "bad") {
      add_none(ids);
      return "a bad value";
    }
    ids.push_back(7);
    return {};
  }
  void add_none(std::vector<std::uint32_t>& ids) const override { ids.push_back(0); }
  std::vector<std::vector<std::string>> take_values() override { return {{"seven"}}; }
};

TEST(ShareBuilder, LabelsGoThroughTheInterner) {
  TokenizedShare share;
  Vocabulary vocabulary;
  ReadOptions options = whitespace_tsv();
  options.fields.label_cols = {3};
  options.labels.names = {"kind"};
  options.label_interner = [](const io::LabelSpec&) { return std::make_unique<SevenInterner>(); };
  ShareBuilder builder(share, options, vocabulary);
  EXPECT_EQ(builder.add({"a\tb\tgood", false}), "");
  EXPECT_EQ(builder.label_problem(), "");
  EXPECT_EQ(builder.add({"a\tb\tbad", false}), "");
  EXPECT_EQ(builder.label_problem(), "a bad value");
  EXPECT_EQ(builder.add({"a\tb", false}), "");
  EXPECT_EQ(builder.label_problem(), "missing label column 3");
  EXPECT_NE(builder.add({"a", false}), "");  // a bad line: no label problem of its own
  EXPECT_EQ(builder.label_problem(), "");
  builder.finish();
  EXPECT_EQ(share.label_ids, (std::vector<std::uint32_t>{7, 0, 0, 0}));
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{0, schema::no_label, schema::no_label, schema::bad_line}));
  EXPECT_EQ(share.label_values, (std::vector<std::vector<std::string>>{{"seven"}}));
}

TEST(ShareBuilder, LabelsWithoutAnInternerAreAProgrammingError) {
  TokenizedShare share;
  Vocabulary vocabulary;
  ReadOptions options = whitespace_tsv();
  options.fields.label_cols = {3};
  EXPECT_THROW(ShareBuilder(share, options, vocabulary), std::logic_error);
}

// The Twitter URL corpus's shape: one input over many pairs, stored once,
// also across bad lines. Releasing the pairs before (at a bad line too)
// keeps it: its whole pages would read as zeros otherwise.
TEST(TokenizedShare, AnInputRepeatedOverManyPairsStaysWhileThePairsBeforeAreReleased) {
  TokenizedShare share;
  Vocabulary vocabulary;
  const ReadOptions options = whitespace_tsv();
  ShareBuilder builder(share, options, vocabulary);
  std::string input;
  for (int w = 0; w < 5000; ++w) input.append("w").append(std::to_string(w)).append(" ");  // 20 KB of types: whole pages
  constexpr std::size_t kPairs = 20000;
  const auto bad = [](std::size_t i) { return i % 1000 == 999; };
  for (std::size_t i = 0; i < kPairs; ++i)
    builder.add({bad(i) ? std::string("a bad line") : input + "\tout" + std::to_string(i) + " x y z", false});
  builder.finish();
  ASSERT_EQ(share.types.size(), 5000 + 4 * (kPairs - kPairs / 1000));  // the input once, each output's four
  for (std::size_t end : {std::size_t{999}, kPairs / 2, 3 * kPairs / 4 - 1}) share.release_types_before(end);
  EXPECT_GT(share.released_bytes(), (kPairs / 2) * 4 * sizeof(WordId));
  const WordId last_input_word = vocabulary.find("w4999");
  for (std::size_t i = 3 * kPairs / 4 - 1; i < kPairs; ++i) {
    if (bad(i)) {
      ASSERT_TRUE(share.src_types(i).empty() && share.tgt_types(i).empty()) << i;
      continue;
    }
    const auto x = share.src_types(i), y = share.tgt_types(i);
    ASSERT_EQ(x.size(), 5000u) << i;
    ASSERT_EQ(x.back(), last_input_word) << i;
    ASSERT_EQ(y.size(), 4u) << i;
    ASSERT_TRUE(std::ranges::find(y, vocabulary.find("out" + std::to_string(i))) != y.end()) << i;
  }
}

}  // namespace
}  // namespace tdcone::text
