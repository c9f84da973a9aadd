#include "tdcone/results/label_subsets.hpp"

namespace tdcone::results {

LabelSubsets label_subsets(const text::TokenizedShare& share, const label::PairLabels& labels) {
  const label::LabelSpace& space = labels.space;
  LabelSubsets result;
  std::vector<std::uint32_t> group_of_combination(labels.counts.size(), entropy::kNoGroup);
  for (std::size_t k = 0; k < labels.counts.size(); ++k)
    if (labels.counts[k] > 0) {
      group_of_combination[k] = static_cast<std::uint32_t>(result.combination_of_group.size());
      result.combination_of_group.push_back(static_cast<std::uint32_t>(k));
      result.names.push_back(space.combination_name(k));
    }
  const std::size_t present = result.combination_of_group.size();
  // A label's value is one subset more when there are several labels (with
  // one, its values are the combinations already).
  std::vector<std::size_t> first_marginal(space.names.size(), 0);
  if (space.names.size() > 1)
    for (std::size_t l = 0; l < space.names.size(); ++l) {
      first_marginal[l] = 1 + result.names.size();
      for (std::size_t v = 0; v < space.values[l].size(); ++v) result.names.push_back(space.marginal_name(l, v));
    }

  entropy::PairGroups& groups = result.groups;
  groups.subset_count = 1 + result.names.size();
  for (std::size_t j = 0; j < present; ++j) {
    std::vector<std::uint32_t> subsets{0, static_cast<std::uint32_t>(1 + j)};
    for (std::size_t l = 0; l < space.names.size() && space.names.size() > 1; ++l)
      subsets.push_back(static_cast<std::uint32_t>(first_marginal[l] + space.value_of(result.combination_of_group[j], l)));
    groups.subsets_of_group.push_back(std::move(subsets));
  }
  const auto unlabelled = static_cast<std::uint32_t>(present);
  groups.subsets_of_group.push_back({0});  // scored pairs without a label: the corpus only
  result.combination_of_group.push_back(label::kNoCombination);

  groups.group_of_pair.resize(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) {
    const std::uint32_t k = labels.combination_of_pair[i];
    groups.group_of_pair[i] = (share.flags[i] & schema::bad_line) ? entropy::kNoGroup
                              : k == label::kNoCombination    ? unlabelled
                                                              : group_of_combination[k];
  }
  return result;
}

}  // namespace tdcone::results
