// Synthetic corpus generator: docs/spec.md §7 `tdcone synth` (synth/synth.cpp):
// zstd output, --labels over either profile, zero pairs, standard output
// and an unwritable path. Each profile's corpora: synth_paraphrase_profile_test.cpp,
// synth_twitter_profile_test.cpp.
#include "tdcone/synth/synth.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "synth_corpora.hpp"

namespace tdcone::synth {
namespace {

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
