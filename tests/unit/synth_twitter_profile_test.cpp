// The Twitter profile of `tdcone synth` (synth/twitter_profile.cpp), the
// default: headline-and-tweet pairs in runs that share their source, its
// score, vocabulary growth and junk.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "synth_corpora.hpp"

namespace tdcone::synth {
namespace {

TEST_F(SynthTest, TwitterIsTheDefaultProfile) {
  EXPECT_EQ(SynthOptions{}.profile, Profile::twitter);
  EXPECT_EQ(profile_from_name("twitter"), Profile::twitter);
  EXPECT_EQ(profile_from_name("paraphrase"), Profile::paraphrase);
  EXPECT_THROW(profile_from_name("news"), UsageError);
  SynthOptions paraphrase = twitter(300);
  paraphrase.profile = Profile::paraphrase;
  EXPECT_NE(write(twitter(300), "t.tsv"), write(paraphrase, "p.tsv"));
}

TEST_F(SynthTest, TwitterSameOptionsGiveTheSameBytes) {
  const auto a = write(twitter(3000), "a.tsv");
  EXPECT_EQ(a, write(twitter(3000), "b.tsv"));
  EXPECT_NE(a, write(twitter(3000, 2), "c.tsv"));
  SynthOptions zstd = twitter(3000);
  zstd.zstd = true;
  std::size_t frames = 0;
  EXPECT_EQ(decompress_all(write(zstd, "a.tsv.zst"), frames), a);
}

TEST_F(SynthTest, TwitterFirstPairContinuesTheSameCorpus) {
  const auto whole = lines_of(write(twitter(5000), "whole.tsv"));
  for (std::uint64_t first : {1u, 1234u, 4321u}) {  // mostly in the middle of a run
    SynthOptions tail = twitter(5000 - first);
    tail.first_pair = first;
    const auto held_out = lines_of(write(tail, "tail.tsv"));
    ASSERT_EQ(held_out.size(), 5000 - first);
    EXPECT_TRUE(std::equal(held_out.begin(), held_out.end(), whole.begin() + first)) << first;
  }
  SynthOptions far = twitter(100);  // a held-out set far beyond the corpus: other headlines
  far.first_pair = 3'000'000;
  std::set<std::string> sources;
  for (const auto& line : whole) sources.insert(split(line, '\t')[0]);
  for (const auto& line : lines_of(write(far, "far.tsv"))) EXPECT_EQ(sources.count(split(line, '\t')[0]), 0u);
}

TEST_F(SynthTest, TwitterCandidateRunsShareTheirSource) {
  SynthOptions options = twitter(30000);
  options.junk_fraction = 0;
  std::vector<std::size_t> runs;
  std::set<std::string> sources;
  std::string previous;
  for (const auto& line : lines_of(write(options, "runs.tsv"))) {
    const auto columns = split(line, '\t');
    ASSERT_EQ(columns.size(), 4u) << line;
    if (runs.empty() || columns[0] != previous) runs.push_back(0);
    ++runs.back();
    previous = columns[0];
    sources.insert(columns[0]);
  }
  EXPECT_EQ(sources.size(), runs.size());  // a headline comes back only in its own run
  const double mean = 30000.0 / runs.size();
  EXPECT_GT(mean, 11.5);
  EXPECT_LT(mean, 14.5);
  EXPECT_LE(*std::max_element(runs.begin(), runs.end()), 60u);
  EXPECT_GE(*std::max_element(runs.begin(), runs.end()), 45u);  // geometric: long runs happen
  EXPECT_GT(std::count(runs.begin(), runs.end(), 1u), 0);
}

TEST_F(SynthTest, TwitterScoreParsesAndFollowsTheOverlap) {
  SynthOptions options = twitter(20000);
  options.junk_fraction = 0;
  text::Tokenizer tokenizer({text::TokenizerKind::punct, true});
  std::vector<double> scores, overlaps;
  double low = 0, high = 0;
  std::size_t n_low = 0, n_high = 0;
  for (const auto& line : lines_of(write(options, "score.tsv"))) {
    const auto columns = split(line, '\t');
    ASSERT_EQ(columns.size(), 4u);
    ASSERT_EQ(columns[2].size(), 6u) << columns[2];
    EXPECT_EQ(columns[2][1], '.');
    const double score = std::stod(columns[2]);
    ASSERT_GE(score, 0.0);
    ASSERT_LE(score, 1.0);
    const double overlap = jaccard(types_of(tokenizer, columns[0]), types_of(tokenizer, columns[1]));
    scores.push_back(score);
    overlaps.push_back(overlap);
    if (score < 0.2) low += overlap, ++n_low;
    if (score > 0.8) high += overlap, ++n_high;
  }
  EXPECT_GT(correlation(scores, overlaps), 0.6);
  // Most candidates are loosely related (low scores), a fifth or so are paraphrases.
  const double mean = std::accumulate(scores.begin(), scores.end(), 0.0) / scores.size();
  EXPECT_GT(mean, 0.22);
  EXPECT_LT(mean, 0.38);
  EXPECT_GT(n_low, n_high);
  ASSERT_GT(n_high, 1000u);
  EXPECT_GT(high / n_high, 3 * (low / n_low));
}

TEST_F(SynthTest, TwitterPairsLookLikeHeadlinesAndTweets) {
  SynthOptions options = twitter(20000);
  options.junk_fraction = 0;
  const auto text = write(options, "shape.tsv");
  text::Tokenizer tokenizer({text::TokenizerKind::punct, true});
  std::vector<double> overlaps;
  double src_tokens = 0, tgt_tokens = 0;
  std::size_t copies = 0, at_most_one_shared = 0;
  std::vector<std::string_view> tokens;
  for (const auto& line : lines_of(text)) {
    const auto columns = split(line, '\t');
    tokenizer.tokenize(columns[0], tokens);
    src_tokens += tokens.size();
    tokenizer.tokenize(columns[1], tokens);
    tgt_tokens += tokens.size();
    const auto src = types_of(tokenizer, columns[0]), tgt = types_of(tokenizer, columns[1]);
    overlaps.push_back(jaccard(src, tgt));
    std::size_t common = 0;
    for (const auto& word : src) common += tgt.count(word);
    at_most_one_shared += common <= 1;
    copies += columns[0] == columns[1];
  }
  // The Twitter URL test file: 16.2 and 18.0 tokens, Jaccard median 0.10, 27% share at most one type.
  EXPECT_NEAR(src_tokens / overlaps.size(), 16.2, 1.5);
  EXPECT_NEAR(tgt_tokens / overlaps.size(), 18.0, 1.5);
  std::sort(overlaps.begin(), overlaps.end());
  EXPECT_NEAR(overlaps[overlaps.size() / 2], 0.10, 0.03);
  EXPECT_NEAR(overlaps[overlaps.size() * 9 / 10], 0.41, 0.08);
  EXPECT_NEAR(double(at_most_one_shared) / overlaps.size(), 0.27, 0.06);
  EXPECT_GT(copies, 0.005 * overlaps.size());  // exact copies: a small fraction
  EXPECT_LT(copies, 0.03 * overlaps.size());
  for (const char* piece : {" #", " @", "https://t.co/", "'s", ": ", ", "})
    EXPECT_NE(text.find(piece), std::string::npos) << piece;
}

TEST_F(SynthTest, TwitterVocabularyGrowsSublinearly) {
  SynthOptions options = twitter(40000);
  options.junk_fraction = 0;
  text::Tokenizer tokenizer({text::TokenizerKind::punct, true});
  std::set<std::string> src, tgt;
  std::vector<std::string_view> tokens;
  std::size_t src_4k = 0, tgt_4k = 0, n = 0;
  for (const auto& line : lines_of(write(options, "growth.tsv"))) {
    const auto columns = split(line, '\t');
    tokenizer.tokenize(columns[0], tokens);
    src.insert(tokens.begin(), tokens.end());
    tokenizer.tokenize(columns[1], tokens);
    tgt.insert(tokens.begin(), tokens.end());
    if (++n == 4000) src_4k = src.size(), tgt_4k = tgt.size();
  }
  // Heaps: ten times the pairs, 3-7 times the types (the Twitter URL file: 3.5 on the tweet side).
  EXPECT_GT(double(tgt.size()) / tgt_4k, 2.5);
  EXPECT_LT(double(tgt.size()) / tgt_4k, 6.0);
  EXPECT_GT(double(src.size()) / src_4k, 3.0);
  EXPECT_LT(double(src.size()) / src_4k, 8.0);
  EXPECT_GT(tgt.size(), 2 * src.size());  // ~13 tweets a headline
}

TEST_F(SynthTest, TwitterJunkFractionIsHonoured) {
  for (double fraction : {0.0, 0.05}) {
    SynthOptions options = twitter(20000);
    options.junk_fraction = fraction;
    std::size_t empty_side = 0, long_tgt = 0, no_tab = 0, bad_score = 0, identical = 0;
    for (const auto& line : lines_of(write(options, "junk.tsv"))) {
      const auto columns = split(line, '\t');
      if (columns.size() == 1) {
        ++no_tab;
        continue;
      }
      ASSERT_EQ(columns.size(), 4u);
      empty_side += columns[0].empty() || columns[1].empty();
      long_tgt += count_tokens(columns[1]) >= 200;
      bad_score += columns[2] == "n/a";
      identical += columns[0] == columns[1];
    }
    const double unambiguous = empty_side + long_tgt + no_tab + bad_score;  // 77.5% of the junk
    if (fraction == 0) {
      EXPECT_EQ(unambiguous, 0);
    } else {
      EXPECT_GT(unambiguous, 0.85 * 20000 * fraction * 0.775);
      EXPECT_LT(unambiguous, 1.15 * 20000 * fraction * 0.775);
      for (auto count : {empty_side, long_tgt, no_tab, bad_score}) EXPECT_GT(count, 10u);
    }
    EXPECT_GT(identical, 0.005 * 20000);  // exact copies also happen as candidates
  }
}

}  // namespace
}  // namespace tdcone::synth
