#include "tdcone/entropy/subset_diversity.hpp"

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::entropy {

void add_subset_diversity(MPI_Comm comm, const text::TokenizedShare& share, const PairGroups& groups,
                          std::vector<SubsetScore>& subsets) {
  std::vector<text::DiversitySums> of_group(groups.group_count());
  if (share.diversity.size() == share.size())
    for (std::size_t i = 0; i < share.size(); ++i)
      if (const std::uint32_t group = groups.group_of_pair[i]; group != kNoGroup)
        of_group[group].add(share.diversity.matches(i, share.tgt_len[i]), share.tgt_len[i]);
  // Flattened per subset, Σm_1..4 then Σc_1..4, for one sum over the ranks.
  constexpr std::size_t kWidth = 2 * text::kBleuOrders;
  std::vector<std::uint64_t> sums(subsets.size() * kWidth, 0);
  for (std::size_t g = 0; g < of_group.size(); ++g)
    for (std::uint32_t s : groups.subsets_of_group[g])
      for (std::size_t n = 0; n < text::kBleuOrders; ++n) {
        sums[s * kWidth + n] += of_group[g].matches[n];
        sums[s * kWidth + text::kBleuOrders + n] += of_group[g].ngrams[n];
      }
  sums = mpi::sum_all(comm, sums);
  for (std::size_t s = 0; s < subsets.size(); ++s)
    for (std::size_t n = 0; n < text::kBleuOrders; ++n) {
      subsets[s].diversity.matches[n] = sums[s * kWidth + n];
      subsets[s].diversity.ngrams[n] = sums[s * kWidth + text::kBleuOrders + n];
    }
}

}  // namespace tdcone::entropy
