// Synthetic corpus generator: SPEC §7 `tdcone synth`.
#include "tdcone/synth/synth.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/text/tokenizer.hpp"

namespace tdcone::synth {
namespace {

namespace fs = std::filesystem;

class SynthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tdcone_synth_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const SynthOptions& options, const std::string& name) {
    const auto path = (dir_ / name).string();
    write_corpus(options, path);
    return read_file(path);
  }

  static std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  fs::path dir_;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

std::vector<std::string> lines_of(const std::string& text) {
  EXPECT_TRUE(text.empty() || text.back() == '\n');
  auto lines = split(text, '\n');
  lines.pop_back();  // after the final newline
  return lines;
}

std::size_t count_tokens(const std::string& side) {
  std::istringstream in(side);
  return std::distance(std::istream_iterator<std::string>(in), std::istream_iterator<std::string>());
}

// The paraphrase profile (the tests below check its shape); twitter() for the default profile.
SynthOptions small(std::uint64_t pairs, std::uint64_t seed = 1) {
  SynthOptions options;
  options.profile = Profile::paraphrase;
  options.pairs = pairs;
  options.seed = seed;
  options.vocabulary = 3000;
  return options;
}

std::string decompress_all(const std::string& compressed, std::size_t& frames) {
  std::string text;
  frames = 0;
  for (std::size_t offset = 0; offset < compressed.size(); ++frames) {
    const char* frame = compressed.data() + offset;
    const std::size_t frame_size = ZSTD_findFrameCompressedSize(frame, compressed.size() - offset);
    EXPECT_FALSE(ZSTD_isError(frame_size)) << ZSTD_getErrorName(frame_size);
    if (ZSTD_isError(frame_size)) break;
    const auto content_size = ZSTD_getFrameContentSize(frame, frame_size);
    EXPECT_NE(content_size, ZSTD_CONTENTSIZE_UNKNOWN);  // readers size their buffers from it
    EXPECT_NE(content_size, ZSTD_CONTENTSIZE_ERROR);
    std::string part(content_size, '\0');
    const std::size_t n = ZSTD_decompress(part.data(), part.size(), frame, frame_size);
    EXPECT_FALSE(ZSTD_isError(n));
    EXPECT_EQ(n, content_size);
    text += part;
    offset += frame_size;
  }
  return text;
}

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

// ---- the twitter profile (the default) ----

SynthOptions twitter(std::uint64_t pairs, std::uint64_t seed = 1) {
  SynthOptions options;
  options.pairs = pairs;
  options.seed = seed;
  return options;
}

std::set<std::string> types_of(text::Tokenizer& tokenizer, const std::string& side) {
  std::vector<std::string_view> tokens;
  tokenizer.tokenize(side, tokens);
  return {tokens.begin(), tokens.end()};
}

double jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::size_t common = 0;
  for (const auto& word : a) common += b.count(word);
  return a.empty() && b.empty() ? 1.0 : double(common) / (a.size() + b.size() - common);
}

double correlation(const std::vector<double>& x, const std::vector<double>& y) {
  auto mean = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); };
  const double mx = mean(x), my = mean(y);
  double cov = 0, vx = 0, vy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    cov += (x[i] - mx) * (y[i] - my);
    vx += (x[i] - mx) * (x[i] - mx);
    vy += (y[i] - my) * (y[i] - my);
  }
  return cov / std::sqrt(vx * vy);
}

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

TEST_F(SynthTest, ZstdIsMultiFrameAndDecompressesToThePlainText) {
  SynthOptions options = small(30000);
  options.junk_fraction = 0.01;
  const auto plain = write(options, "corpus.tsv");
  options.zstd = true;
  const auto compressed = write(options, "corpus.tsv.zst");
  ASSERT_GT(plain.size(), 3u << 20);
  EXPECT_LT(compressed.size(), plain.size() / 2);
  std::size_t frames = 0;
  EXPECT_EQ(decompress_all(compressed, frames), plain);
  EXPECT_EQ(frames, (plain.size() + (1u << 20) - 1) >> 20);  // 1 MiB of text per frame
  EXPECT_EQ(ZSTD_getFrameContentSize(compressed.data(), compressed.size()), 1u << 20);

  // The streaming decoder reads the concatenated frames as one stream too.
  std::string streamed(plain.size() + 1, '\0');
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  ZSTD_outBuffer out{streamed.data(), streamed.size(), 0};
  while (in.pos < in.size) ASSERT_FALSE(ZSTD_isError(ZSTD_decompressStream(context.get(), &out, &in)));
  streamed.resize(out.pos);
  EXPECT_EQ(streamed, plain);
}

// --labels: the same corpus of either profile with a labelled copy of it.
std::vector<SynthOptions> both_profiles(std::uint64_t pairs, bool labels) {
  SynthOptions paraphrase = small(pairs);
  paraphrase.vocabulary = 50000;
  std::vector<SynthOptions> options{twitter(pairs), paraphrase};
  for (auto& o : options) o.labels = labels;
  return options;
}

std::string first_columns(const std::string& line, std::size_t n) {
  auto columns = split(line, '\t');
  columns.resize(std::min(columns.size(), n));
  std::string text = columns[0];
  for (std::size_t i = 1; i < columns.size(); ++i) text += '\t' + columns[i];
  return text;
}

TEST_F(SynthTest, LabelsLeaveTheFirstFourColumnsAsTheyWere) {
  const auto plain = both_profiles(20000, false), labelled = both_profiles(20000, true);
  for (std::size_t p = 0; p < plain.size(); ++p) {
    SynthOptions junky = plain[p], junky_labelled = labelled[p];
    junky.junk_fraction = junky_labelled.junk_fraction = 0.05;  // no-tab lines keep their single column
    const auto without = lines_of(write(junky, "plain.tsv"));
    const auto with = lines_of(write(junky_labelled, "labelled.tsv"));
    ASSERT_EQ(with.size(), without.size());
    for (std::size_t i = 0; i < with.size(); ++i) ASSERT_EQ(first_columns(with[i], 4), without[i]) << p << " " << i;
  }
}

TEST_F(SynthTest, LabelsAreSkewedLikeTheStyleCorpus) {
  // seeds/multi-style-balancing.txt Table 1: formal|aroused, formal|calm, informal|aroused, informal|calm
  const std::vector<std::string> combinations{"formal|aroused", "formal|calm", "informal|aroused", "informal|calm"};
  const std::vector<double> expected{8685.0 / 13580, 2792.0 / 13580, 1275.0 / 13580, 828.0 / 13580};
  for (auto options : both_profiles(100000, true)) {
    options.junk_fraction = 0;
    std::unordered_map<std::string, double> count;
    std::set<std::string> formalities;
    const auto lines = lines_of(write(options, "labels.tsv"));
    for (const auto& line : lines) {
      const auto columns = split(line, '\t');
      ASSERT_EQ(columns.size(), 6u) << line;
      ASSERT_EQ(columns[4].size(), 5u) << columns[4];  // 3 decimals
      const double formality = std::stod(columns[4]);
      ASSERT_GE(formality, 0.0);
      ASSERT_LE(formality, 1.0);
      ASSERT_TRUE(columns[5] == "aroused" || columns[5] == "calm") << columns[5];
      ++count[(formality >= 0.5 ? "formal|" : "informal|") + columns[5]];
      formalities.insert(columns[4]);
    }
    EXPECT_GT(formalities.size(), 500u);  // a number, not a disguised class
    for (std::size_t c = 0; c < combinations.size(); ++c) {
      const double share = count[combinations[c]] / lines.size();
      EXPECT_NEAR(share, expected[c], 0.015) << combinations[c];
      EXPECT_GT(share, 0.05) << combinations[c];
    }
  }
}

TEST_F(SynthTest, LabelsFollowTheHeadline) {
  // The candidates of one headline share its formality tendency: the share of formal lines
  // varies between headlines far more than independent draws would.
  SynthOptions options = twitter(50000);
  options.labels = true;
  options.junk_fraction = 0;
  std::unordered_map<std::string, std::pair<double, double>> by_headline;  // formal, lines
  for (const auto& line : lines_of(write(options, "topics.tsv"))) {
    const auto columns = split(line, '\t');
    auto& [formal, lines] = by_headline[columns[0]];
    formal += std::stod(columns[4]) >= 0.5;
    lines += 1;
  }
  double spread = 0, binomial = 0, n = 0;
  for (const auto& [headline, counts] : by_headline) {
    const auto [formal, lines] = counts;
    if (lines < 10) continue;
    spread += (formal / lines - 0.845) * (formal / lines - 0.845);
    binomial += 0.845 * 0.155 / lines;
    n += 1;
  }
  EXPECT_GT(n, 1000);
  EXPECT_GT(spread, 2 * binomial);
}

TEST_F(SynthTest, BadLabelsComeWithJunk) {
  for (auto options : both_profiles(20000, true)) {
    for (double fraction : {0.0, 0.05}) {
      options.junk_fraction = fraction;
      std::size_t unparsable = 0, missing = 0;
      for (const auto& line : lines_of(write(options, "bad.tsv"))) {
        const auto columns = split(line, '\t');
        if (columns.size() == 1) continue;  // the no-tab junk has no labels either
        ASSERT_TRUE(columns.size() == 5 || columns.size() == 6) << line;
        missing += columns.size() == 5;
        unparsable += columns[4] == "n/a";
      }
      const double expected = 20000 * fraction / 2;
      EXPECT_GE(unparsable + missing, 0.85 * expected);
      EXPECT_LE(unparsable + missing, 1.15 * expected);
      if (fraction > 0) {
        EXPECT_GT(unparsable, expected / 4);
        EXPECT_GT(missing, expected / 4);
      }
    }
  }
}

TEST_F(SynthTest, LabelledFirstPairAndZstdContinueTheSameCorpus) {
  for (const auto& options : both_profiles(5000, true)) {
    const auto text = write(options, "whole.tsv");
    const auto whole = lines_of(text);
    for (std::uint64_t first : {1u, 1234u, 4321u}) {
      SynthOptions tail = options;
      tail.pairs = 5000 - first;
      tail.first_pair = first;
      const auto held_out = lines_of(write(tail, "tail.tsv"));
      ASSERT_EQ(held_out.size(), 5000 - first);
      EXPECT_TRUE(std::equal(held_out.begin(), held_out.end(), whole.begin() + first)) << first;
    }
    SynthOptions zstd = options;
    zstd.zstd = true;
    std::size_t frames = 0;
    EXPECT_EQ(decompress_all(write(zstd, "whole.tsv.zst"), frames), text);
  }
}

TEST_F(SynthTest, ZeroPairs) {
  EXPECT_EQ(write(small(0), "empty.tsv"), "");
  SynthOptions options = small(0);
  options.zstd = true;
  const auto compressed = write(options, "empty.tsv.zst");
  std::size_t frames = 0;
  EXPECT_EQ(decompress_all(compressed, frames), "");
  EXPECT_EQ(frames, 1u);  // still a zstd file, recognised by its magic bytes
}

TEST_F(SynthTest, DashWritesToStdout) {
  const auto file = write(small(200), "stdout.tsv");
  testing::internal::CaptureStdout();
  write_corpus(small(200), "-");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), file);
}

TEST_F(SynthTest, UnwritablePathIsAnIoErrorNamingIt) {
  const auto path = (dir_ / "no-such-dir" / "x.tsv").string();
  try {
    write_corpus(small(10), path);
    FAIL() << "expected IoError";
  } catch (const IoError& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace tdcone::synth
