#pragma once
// The /labels subsets of `score --by-label` and `balance --by-label`.
#include <string>
#include <vector>

#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/label/labels.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::results {

/// The /labels subsets: every combination present, then (with two labels or
/// more) every value of every label, any value of the others.
struct LabelSubsets {
  entropy::PairGroups groups;      // unlabelled pairs: a group in the corpus only
  std::vector<std::string> names;  // per subset after the corpus: "formal|aroused", "formal|*"
  std::vector<std::uint32_t> combination_of_group;  // label::kNoCombination for the unlabelled group
};
LabelSubsets label_subsets(const text::TokenizedShare& share, const label::PairLabels& labels);

}  // namespace tdcone::results
