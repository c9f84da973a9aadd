// The paraphrase profile of `tdcone synth` (synth/paraphrase_profile.cpp):
// the same bytes for the same options, four columns, junk as asked, sane
// lengths, a Zipfian vocabulary and a score that follows the overlap.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "synth_corpora.hpp"

namespace tdcone::synth {
namespace {

TEST_F(SynthTest, SameOptionsGiveTheSameBytes) {
  const auto a = write(small(3000), "a.tsv");
  const auto b = write(small(3000), "b.tsv");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST_F(SynthTest, AnotherSeedGivesOtherBytes) {
  const auto a = write(small(500, 1), "a.tsv");
  const auto b = write(small(500, 2), "b.tsv");
  EXPECT_NE(a, b);
  EXPECT_NE(lines_of(a)[0], lines_of(b)[0]);
}

TEST_F(SynthTest, FirstLinesDoNotDependOnTheLineCount) {
  const auto few = write(small(100), "few.tsv");
  const auto many = write(small(1000), "many.tsv");
  EXPECT_EQ(many.substr(0, few.size()), few);
}

TEST_F(SynthTest, FirstPairContinuesTheSameCorpus) {
  const auto whole = lines_of(write(small(1000), "whole.tsv"));
  SynthOptions tail = small(300);
  tail.first_pair = 700;
  const auto held_out = lines_of(write(tail, "tail.tsv"));
  ASSERT_EQ(held_out.size(), 300u);
  EXPECT_TRUE(std::equal(held_out.begin(), held_out.end(), whole.begin() + 700));
}

TEST_F(SynthTest, OneLinePerPairWithFourColumns) {
  SynthOptions options = small(5000, 42);
  options.junk_fraction = 0;
  const auto lines = lines_of(write(options, "c.tsv"));
  ASSERT_EQ(lines.size(), 5000u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto columns = split(lines[i], '\t');
    ASSERT_EQ(columns.size(), 4u) << lines[i];
    EXPECT_FALSE(columns[0].empty());
    EXPECT_FALSE(columns[1].empty());
    EXPECT_EQ(columns[3], "syn-42-" + std::to_string(i));
    const std::string& score = columns[2];
    ASSERT_EQ(score.size(), 6u) << score;  // 4 decimals
    EXPECT_EQ(score[1], '.');
    const double value = std::stod(score);
    EXPECT_GE(value, 0.0);
    EXPECT_LE(value, 1.0);
  }
}

TEST_F(SynthTest, JunkFractionIsRoughlyAsAsked) {
  SynthOptions options = small(20000);
  options.junk_fraction = 0.05;
  const auto lines = lines_of(write(options, "junk.tsv"));
  ASSERT_EQ(lines.size(), 20000u);
  std::size_t empty_src = 0, empty_tgt = 0, long_tgt = 0, identical = 0, no_tab = 0, bad_score = 0;
  for (const auto& line : lines) {
    const auto columns = split(line, '\t');
    if (columns.size() == 1) {
      ++no_tab;
      continue;
    }
    ASSERT_EQ(columns.size(), 4u);
    if (columns[0].empty()) ++empty_src;
    if (columns[1].empty()) ++empty_tgt;
    if (count_tokens(columns[1]) >= 200) ++long_tgt;
    if (columns[0] == columns[1]) ++identical;
    if (columns[2] == "n/a") ++bad_score;
  }
  // The unambiguous kinds are 77.5% of the junk (identical pairs also happen naturally).
  const double expected = 20000 * 0.05 * 0.775;
  const double found = empty_src + empty_tgt + long_tgt + no_tab + bad_score;
  EXPECT_GT(found, 0.85 * expected);
  EXPECT_LT(found, 1.15 * expected);
  EXPECT_GT(identical, 20000 * 0.05 * 0.225 * 0.8);
  for (auto count : {empty_src, empty_tgt, long_tgt, no_tab, bad_score}) EXPECT_GT(count, 10u);
  EXPECT_LT(no_tab + bad_score, 0.15 * 20000 * 0.05);  // the rarer kinds: ~1/10 of the junk
}

TEST_F(SynthTest, NoJunkWhenNoneIsAsked) {
  SynthOptions options = small(5000);
  options.junk_fraction = 0;
  for (const auto& line : lines_of(write(options, "clean.tsv"))) {
    const auto columns = split(line, '\t');
    ASSERT_EQ(columns.size(), 4u);
    EXPECT_LT(count_tokens(columns[1]), 200u);
    EXPECT_NE(columns[2], "n/a");
  }
}

TEST_F(SynthTest, SentenceLengthsAreSane) {
  SynthOptions options = small(20000);
  options.junk_fraction = 0;
  double src_total = 0, tgt_total = 0;
  std::size_t src_min = 1000, src_max = 0;
  const auto lines = lines_of(write(options, "len.tsv"));
  for (const auto& line : lines) {
    const auto columns = split(line, '\t');
    const auto src = count_tokens(columns[0]), tgt = count_tokens(columns[1]);
    src_min = std::min(src_min, src);
    src_max = std::max(src_max, src);
    src_total += src;
    tgt_total += tgt;
    EXPECT_GE(tgt, 1u);
    EXPECT_LE(tgt, 60u);
  }
  EXPECT_EQ(src_min, 4u);
  EXPECT_GE(src_max, 27u);  // 30 is rare (p = 6.5e-5)
  EXPECT_LE(src_max, 30u);
  EXPECT_NEAR(src_total / lines.size(), 14, 1);
  EXPECT_NEAR(tgt_total / lines.size(), 14, 2);
}

TEST_F(SynthTest, VocabularyIsZipfianWithSurfaceVariation) {
  SynthOptions options = small(20000);
  options.vocabulary = 2000;
  options.junk_fraction = 0;
  const auto text = write(options, "vocab.tsv");
  text::Tokenizer tokenizer({text::TokenizerKind::punct, true});
  std::unordered_map<std::string, std::size_t> counts;
  std::vector<std::string_view> tokens;
  std::size_t total = 0;
  for (const auto& line : lines_of(text)) {
    const auto columns = split(line, '\t');
    tokenizer.tokenize(columns[0], tokens);
    for (auto token : tokens) {
      if (token == "“" || token == "”" || (token.size() == 1 && std::ispunct(static_cast<unsigned char>(token[0]))))
        continue;
      ++counts[std::string(token)];
      ++total;
    }
  }
  EXPECT_LE(counts.size(), 2000u);  // ß folds to ss, so two types may merge
  EXPECT_GT(counts.size(), 1800u);
  std::vector<std::size_t> frequencies;
  for (const auto& [word, count] : counts) frequencies.push_back(count);
  std::sort(frequencies.rbegin(), frequencies.rend());
  // Zipf(1.07) over 2000 types: the top word is ~15.5% of the tokens, rank 10 ~1/11.7 of it.
  EXPECT_NEAR(double(frequencies[0]) / total, 0.155, 0.02);
  EXPECT_NEAR(double(frequencies[0]) / frequencies[9], std::pow(10, 1.07), 3);
  // Surface forms the tokenizer has to undo, and a few non-ASCII words.
  EXPECT_NE(text.find(", "), std::string::npos);
  EXPECT_NE(text.find(".\t"), std::string::npos);
  EXPECT_NE(text.find('?'), std::string::npos);
  EXPECT_NE(text.find("“"), std::string::npos);
  bool capitalized = false;
  for (char c = 'A'; c <= 'Z'; ++c) capitalized |= text.find(c) != std::string::npos;
  EXPECT_TRUE(capitalized);
  std::size_t non_ascii = 0;
  for (const char* letter : {"é", "ü", "ö", "ä", "ß"}) non_ascii += text.find(letter) != std::string::npos;
  EXPECT_GE(non_ascii, 3u);
}

TEST_F(SynthTest, ScoreFollowsTheOverlapOfThePair) {
  SynthOptions options = small(10000);
  options.junk_fraction = 0;
  text::Tokenizer tokenizer({text::TokenizerKind::punct, true});
  std::vector<std::string_view> tokens;
  std::vector<double> scores, overlaps;
  for (const auto& line : lines_of(write(options, "score.tsv"))) {
    const auto columns = split(line, '\t');
    tokenizer.tokenize(columns[0], tokens);
    const std::set<std::string> src(tokens.begin(), tokens.end());
    tokenizer.tokenize(columns[1], tokens);
    const std::set<std::string> tgt(tokens.begin(), tokens.end());
    std::size_t common = 0;
    for (const auto& word : src) common += tgt.count(word);
    overlaps.push_back(double(common) / (src.size() + tgt.size() - common));
    scores.push_back(std::stod(columns[2]));
  }
  auto mean = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); };
  const double ms = mean(scores), mo = mean(overlaps);
  double cov = 0, vs = 0, vo = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    cov += (scores[i] - ms) * (overlaps[i] - mo);
    vs += (scores[i] - ms) * (scores[i] - ms);
    vo += (overlaps[i] - mo) * (overlaps[i] - mo);
  }
  EXPECT_GT(cov / std::sqrt(vs * vo), 0.5);
  EXPECT_GT(ms, 0.5);
  EXPECT_LT(ms, 0.8);
}

}  // namespace
}  // namespace tdcone::synth
