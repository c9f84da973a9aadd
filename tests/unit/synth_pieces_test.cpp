// The pieces of `tdcone synth`: its random source, the Zipf sampler, the word
// list and the columns every profile writes the same way.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tdcone/synth/line_columns.hpp"
#include "tdcone/synth/random.hpp"
#include "tdcone/synth/style_labels.hpp"
#include "tdcone/synth/word_list.hpp"
#include "tdcone/synth/zipf_sampler.hpp"

namespace tdcone::synth {
namespace {

TEST(SynthRandom, ASeedIsOneSequenceAndDrawsStayInRange) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    differs = differs || x != c.next();
  }
  EXPECT_TRUE(differs);
  for (int i = 0; i < 10000; ++i) {
    const double u = a.uniform();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
    EXPECT_LT(a.below(7), 7u);
  }
}

TEST(SynthRandom, NormalHasMeanZeroAndSdOne) {
  Rng rng(5);
  double sum = 0, squares = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = normal(rng);
    sum += x;
    squares += x * x;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(std::sqrt(squares / n), 1.0, 0.01);
}

TEST(SynthZipfSampler, DrawsRanksWithZipfFrequencies) {
  const std::uint32_t n = 10;
  const ZipfSampler zipf(n, 1.0);
  Rng rng(9);
  std::vector<int> counts(n, 0);
  const int draws = 500000;
  for (int i = 0; i < draws; ++i) ++counts[zipf(rng)];
  double harmonic = 0;
  for (std::uint32_t k = 0; k < n; ++k) harmonic += 1.0 / (k + 1);
  for (std::uint32_t k = 0; k < n; ++k)
    EXPECT_NEAR(counts[k] / double(draws), 1.0 / (k + 1) / harmonic, 0.005) << "rank " << k;
}

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

TEST(SynthLineColumns, JunkComesAtItsFraction) {
  Rng rng(1);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(pick_junk(0.0, rng), Junk::none);
  for (int i = 0; i < 1000; ++i) EXPECT_NE(pick_junk(1.0, rng), Junk::none);
}

TEST(SynthLineColumns, ScoreAndIdColumns) {
  Rng rng(1);
  std::string out;
  append_score_and_id(Junk::bad_score, 0.5, 5, 9, rng, out);
  EXPECT_EQ(out, "\tn/a\tsyn-5-9");
  out.clear();
  append_score_and_id(Junk::none, 0.5, 12, 3456, rng, out);
  EXPECT_TRUE(std::regex_match(out, std::regex("\t[01]\\.[0-9]{4}\tsyn-12-3456"))) << out;
  out.clear();
  append_number(18446744073709551615ull, out);
  EXPECT_EQ(out, "18446744073709551615");
}

TEST(SynthStyleLabels, FormalityAndArousalColumnsSomeBad) {
  SynthOptions options;
  options.junk_fraction = 0.2;  // a tenth of the labels bad
  const LabelWriter labels(options);
  const std::regex good("\t[01]\\.[0-9]{3}\t(aroused|calm)"), missing("\t[01]\\.[0-9]{3}"),
      unparsable("\tn/a\t(aroused|calm)");
  int bad = 0;
  for (std::uint64_t index = 0; index < 2000; ++index) {
    std::string out;
    labels.append(index, index / 10, index / 50, 0.0, out);
    if (std::regex_match(out, good)) continue;
    EXPECT_TRUE(std::regex_match(out, missing) || std::regex_match(out, unparsable)) << out;
    ++bad;
  }
  EXPECT_NEAR(bad / 2000.0, 0.1, 0.03);
}

}  // namespace
}  // namespace tdcone::synth
