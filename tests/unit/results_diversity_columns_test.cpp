// The per-pair diversity columns of /pairs and the buckets of
// --length-buckets (results/diversity_columns.hpp), by hand.
#include "tdcone/results/diversity_columns.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace tdcone::results {
namespace {

// Pairs with their lengths and n-gram matches.
text::TokenizedShare pairs() {
  text::TokenizedShare share;
  auto add = [&](std::uint32_t src_len, std::uint32_t tgt_len, const text::NgramMatches& m, bool bad = false) {
    share.flags.push_back(bad ? schema::bad_line : 0);
    share.src_len.push_back(src_len);
    share.tgt_len.push_back(tgt_len);
    share.diversity.add(m, tgt_len, 0);
  };
  add(2, 4, {3, 1, 0, 0});  // p = 3/4, 2/4, 1/3, 2/4: BLEU (1/16)^(1/4) = 1/2
  add(0, 0, {}, true);      // a bad line: no sides
  add(3, 1, {1, 0, 0, 0});  // p = 1, then (0 + 1)/(0 + 1): BLEU 1
  add(5, 2, {0, 0, 0, 0});  // no match: 0
  return share;
}

TEST(DiversityColumns, EachPairsMeasure) {
  const text::TokenizedShare share = pairs();
  const std::vector<double> bleu = pair_measure(share, PairMeasure::bleu);
  ASSERT_EQ(bleu.size(), 4u);
  EXPECT_NEAR(bleu[0], 0.5, 1e-15);
  EXPECT_TRUE(std::isnan(bleu[1]));
  EXPECT_EQ(bleu[2], 1.0);
  EXPECT_EQ(bleu[3], 0.0);
  const std::vector<double> unigrams = pair_measure(share, PairMeasure::unigram_precision);
  EXPECT_EQ(unigrams[0], 0.75);
  EXPECT_TRUE(std::isnan(unigrams[1]));
  EXPECT_EQ(unigrams[2], 1.0);
  EXPECT_EQ(unigrams[3], 0.0);
  const std::vector<double> ratio = pair_measure(share, PairMeasure::len_ratio);
  EXPECT_EQ(ratio[0], 2.0);  // the longer side over the shorter
  EXPECT_TRUE(std::isnan(ratio[1]));
  EXPECT_EQ(ratio[2], 3.0);
  EXPECT_EQ(ratio[3], 2.5);
}

TEST(DiversityColumns, AShareReadWithoutDiversityHasNoMeasure) {
  text::TokenizedShare share;
  share.flags = {0};
  share.src_len = {1};
  share.tgt_len = {1};
  EXPECT_THROW(pair_measure(share, PairMeasure::bleu), std::logic_error);
}

TEST(DiversityColumns, LengthBucketsAreIncreasingAndEachGivenOnce) {
  EXPECT_EQ(length_buckets_problem({}), "");
  EXPECT_EQ(length_buckets_problem({7}), "");
  EXPECT_EQ(length_buckets_problem({5, 10, 20, 40}), "");
  const std::string twice = length_buckets_problem({5, 10, 10});
  EXPECT_EQ(twice.rfind("5,10,10 gives 10 twice: ", 0), 0u) << twice;
  const std::string decreasing = length_buckets_problem({5, 20, 10});
  EXPECT_EQ(decreasing.rfind("5,20,10 is not increasing: ", 0), 0u) << decreasing;
}

}  // namespace
}  // namespace tdcone::results
