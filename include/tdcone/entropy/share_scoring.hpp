#pragma once
// Aligning every pair of a rank's share: pair TD-CONE and the local matrix.
#include <cstdint>
#include <vector>

#include "tdcone/align/count_matrix.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::entropy {

struct ShareAlignment {
  std::vector<double> pair_tdcone;        // per pair; NaN for bad lines
  align::LocalCountMatrix matrix;         // summed over the scored pairs
  std::vector<std::uint8_t> word_sides;   // per local word id: mpi::WordSide bits
  std::uint64_t scored = 0;
};

/// Aligns every scored (not bad) pair of `share` with `aligner`.
ShareAlignment align_share(const text::TokenizedShare& share, align::PairAligner& aligner);

}  // namespace tdcone::entropy
