#pragma once
// Conditional entropy and TD-CONE of an alignment count matrix (SPEC §3).
#include <cstdint>

#include "tdcone/align/pair_alignment.hpp"

namespace tdcone::entropy {

/// H(Y|X) / ln(|V_y| + 1); 0 when there are no output types.
double tdcone_from_entropy(double cond_entropy, std::uint64_t output_types);

/// TD-CONE of one pair on its own (|V_y| = the pair's own output types).
double pair_tdcone(const align::PairMatrix& matrix, std::size_t output_types);

}  // namespace tdcone::entropy
