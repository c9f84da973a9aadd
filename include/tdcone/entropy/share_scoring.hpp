#pragma once
// Aligning every pair of a rank's share: pair TD-CONE and local matrices.
#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/align/count_matrix.hpp"
#include "tdcone/mpi/global_vocabulary.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::entropy {

struct ShareAlignment {
  std::vector<double> pair_tdcone;             // per pair; NaN for bad lines
  std::vector<align::LocalCountMatrix> groups;  // summed over the scored pairs of each group
};

/// Aligns every scored (not bad) pair of `share`; pair i's cells go to the
/// matrix of group_of_pair[i] (all to group 0 when group_of_pair is empty).
ShareAlignment align_share(const text::TokenizedShare& share, align::PairAligner& aligner,
                           std::span<const std::uint32_t> group_of_pair = {}, std::size_t n_groups = 1);

/// Sets `input_bit` / `output_bit` on the words of the scored pairs and, with
/// groups, WordMarks::group_output(g) on the output words of group g.
void mark_words(const text::TokenizedShare& share, mpi::WordMarks& marks, unsigned input_bit, unsigned output_bit,
                std::span<const std::uint32_t> group_of_pair = {});

}  // namespace tdcone::entropy
