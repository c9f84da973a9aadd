// The n-gram sums of each subset (entropy/subset_diversity.hpp) by hand:
// Σm_n and Σc_n of the scored pairs of the subset's groups, and the corpus
// BLEU and unigram precision made of them.
#include "tdcone/entropy/subset_diversity.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <vector>

namespace tdcone::entropy {
namespace {

using Sums = std::array<std::uint64_t, text::kBleuOrders>;

// Pairs with their output lengths and n-gram matches (a bad line: none).
struct Pairs {
  text::TokenizedShare share;
  void add(std::uint32_t tgt_len, const text::NgramMatches& matches, bool bad = false) {
    share.flags.push_back(bad ? schema::bad_line : 0);
    share.tgt_len.push_back(tgt_len);
    share.diversity.add(matches, tgt_len, 0);
  }
};

PairGroups two_shards(std::vector<std::uint32_t> group_of_pair) {
  PairGroups groups;
  groups.group_of_pair = std::move(group_of_pair);
  groups.subsets_of_group = {{0, 1}, {0, 2}};
  groups.subset_count = 3;
  return groups;
}

TEST(SubsetDiversity, EachSubsetSumsItsPairs) {
  Pairs p;
  p.add(4, {4, 3, 2, 1});  // a copy: c = 4, 3, 2, 1
  p.add(2, {2, 1, 0, 0});  // c = 2, 1, 0, 0
  p.add(3, {3, 2, 1, 0}, true);
  p.add(1, {0, 0, 0, 0});  // c = 1, 0, 0, 0
  std::vector<SubsetScore> subsets(3);
  add_subset_diversity(MPI_COMM_SELF, p.share, two_shards({0, 1, kNoGroup, 1}), subsets);
  EXPECT_EQ(subsets[0].diversity.matches, (Sums{6, 4, 2, 1}));
  EXPECT_EQ(subsets[0].diversity.ngrams, (Sums{7, 4, 2, 1}));
  EXPECT_EQ(subsets[1].diversity.matches, (Sums{4, 3, 2, 1}));
  EXPECT_EQ(subsets[1].diversity.ngrams, (Sums{4, 3, 2, 1}));
  EXPECT_EQ(subsets[2].diversity.matches, (Sums{2, 1, 0, 0}));
  EXPECT_EQ(subsets[2].diversity.ngrams, (Sums{3, 1, 0, 0}));
  // BLEU: the geometric mean of the four Σm_n/Σc_n, unsmoothed.
  EXPECT_NEAR(subsets[0].diversity.bleu(), std::pow(6.0 / 7.0, 0.25), 1e-15);
  EXPECT_EQ(subsets[1].diversity.bleu(), 1.0);
  EXPECT_EQ(subsets[2].diversity.bleu(), 0.0);  // no 3-gram matches
  EXPECT_NEAR(subsets[0].diversity.unigram_precision(), 6.0 / 7.0, 1e-15);
  EXPECT_NEAR(subsets[2].diversity.unigram_precision(), 2.0 / 3.0, 1e-15);
}

TEST(SubsetDiversity, ASubsetWithoutPairsHasNoBleu) {
  Pairs p;
  p.add(2, {1, 0, 0, 0});
  std::vector<SubsetScore> subsets(3);
  add_subset_diversity(MPI_COMM_SELF, p.share, two_shards({0}), subsets);
  EXPECT_EQ(subsets[1].diversity.ngrams, (Sums{2, 1, 0, 0}));
  EXPECT_EQ(subsets[2].diversity.ngrams, (Sums{}));
  EXPECT_TRUE(std::isnan(subsets[2].diversity.bleu()));
  EXPECT_TRUE(std::isnan(subsets[2].diversity.unigram_precision()));
}

TEST(SubsetDiversity, AShareReadWithoutDiversityLeavesTheSumsEmpty) {
  text::TokenizedShare share;
  share.flags = {0, 0};
  share.tgt_len = {3, 4};
  std::vector<SubsetScore> subsets(3);
  add_subset_diversity(MPI_COMM_SELF, share, two_shards({0, 1}), subsets);
  for (const SubsetScore& s : subsets) {
    EXPECT_EQ(s.diversity.ngrams, (Sums{}));
    EXPECT_EQ(s.diversity.matches, (Sums{}));
  }
}

}  // namespace
}  // namespace tdcone::entropy
