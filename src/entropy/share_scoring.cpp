#include "tdcone/entropy/share_scoring.hpp"

#include <limits>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/entropy/tdcone.hpp"

namespace tdcone::entropy {

ShareAlignment align_share(const text::TokenizedShare& share, align::PairAligner& aligner,
                           std::span<const std::uint32_t> group_of_pair, std::size_t n_groups) {
  ShareAlignment result;
  result.pair_tdcone.assign(share.size(), std::numeric_limits<double>::quiet_NaN());
  result.groups.resize(n_groups);
  align::PairMatrix pair;
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (share.flags[i] & text::bad_line) continue;
    const auto y = share.tgt_types(i);
    aligner.align(share.src_types(i), y, pair);
    result.pair_tdcone[i] = pair_tdcone(pair, y.size());
    const std::uint32_t group = group_of_pair.empty() ? 0 : group_of_pair[i];
    if (group != kNoGroup) result.groups[group].add(pair);
  }
  return result;
}

void mark_words(const text::TokenizedShare& share, mpi::WordMarks& marks, unsigned input_bit, unsigned output_bit,
                std::span<const std::uint32_t> group_of_pair) {
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (share.flags[i] & text::bad_line) continue;
    for (auto w : share.src_types(i)) marks.set(w, input_bit);
    for (auto w : share.tgt_types(i)) marks.set(w, output_bit);
    if (!group_of_pair.empty() && group_of_pair[i] != kNoGroup)
      for (auto w : share.tgt_types(i)) marks.set(w, mpi::WordMarks::group_output(group_of_pair[i]));
  }
}

}  // namespace tdcone::entropy
