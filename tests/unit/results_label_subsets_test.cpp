// The /labels subsets of --by-label (results/label_subsets.hpp), by hand:
// the combinations present, then each value of each label with any value of
// the others; unlabelled pairs in the corpus only, bad lines in no group.
#include "tdcone/results/label_subsets.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tdcone::results {
namespace {

using Subsets = std::vector<std::vector<std::uint32_t>>;

// Formality {formal, casual} and arousal {aroused, calm}: formal|aroused is
// combination 0 and casual|calm 3, whichever label varies fastest.
label::PairLabels two_labels(const std::vector<std::uint32_t>& combination_of_pair) {
  label::PairLabels labels;
  labels.space.names = {"formality", "arousal"};
  labels.space.values = {{"formal", "casual"}, {"aroused", "calm"}};
  labels.combination_of_pair = combination_of_pair;
  labels.counts.assign(4, 0);
  for (std::uint32_t k : combination_of_pair)
    if (k != label::kNoCombination) ++labels.counts[k];
  return labels;
}

text::TokenizedShare share_of(std::vector<std::uint8_t> flags) {
  text::TokenizedShare share;
  share.flags = std::move(flags);
  return share;
}

TEST(LabelSubsets, CombinationsPresentThenEachValueOfEachLabel) {
  const std::uint32_t none = label::kNoCombination;
  // formal|aroused, casual|calm, unlabelled, a bad line, formal|aroused.
  const label::PairLabels labels = two_labels({0, 3, none, 0, 0});
  const LabelSubsets s = label_subsets(share_of({0, 0, 0, schema::bad_line, 0}), labels);
  EXPECT_EQ(s.names, (std::vector<std::string>{"formal|aroused", "casual|calm", "formal|*", "casual|*", "*|aroused",
                                               "*|calm"}));
  EXPECT_EQ(s.groups.subset_count, 7u);
  // formal|aroused: the corpus, itself, formal|* and *|aroused; casual|calm
  // likewise; the unlabelled pairs: the corpus only.
  EXPECT_EQ(s.groups.subsets_of_group, (Subsets{{0, 1, 3, 5}, {0, 2, 4, 6}, {0}}));
  EXPECT_EQ(s.combination_of_group, (std::vector<std::uint32_t>{0, 3, none}));
  EXPECT_EQ(s.groups.group_of_pair, (std::vector<std::uint32_t>{0, 1, 2, entropy::kNoGroup, 0}));
}

TEST(LabelSubsets, OneLabelsValuesAreItsCombinations) {
  label::PairLabels labels;
  labels.space.names = {"source"};
  labels.space.values = {{"news", "tweets", "books"}};
  labels.combination_of_pair = {2, 0, 2};
  labels.counts = {1, 0, 2};  // no tweets
  const LabelSubsets s = label_subsets(share_of({0, 0, 0}), labels);
  EXPECT_EQ(s.names, (std::vector<std::string>{"news", "books"}));
  EXPECT_EQ(s.groups.subset_count, 3u);
  EXPECT_EQ(s.groups.subsets_of_group, (Subsets{{0, 1}, {0, 2}, {0}}));
  EXPECT_EQ(s.combination_of_group, (std::vector<std::uint32_t>{0, 2, label::kNoCombination}));
  EXPECT_EQ(s.groups.group_of_pair, (std::vector<std::uint32_t>{1, 0, 1}));
}

}  // namespace
}  // namespace tdcone::results
