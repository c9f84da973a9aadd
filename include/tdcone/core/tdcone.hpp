#pragma once
// TD-CONE from a conditional entropy (docs/spec.md §3).
#include <cstdint>

namespace tdcone {

/// H(Y|X) / ln(|V_y| + 1); 0 when there are no output types.
double tdcone_from_entropy(double cond_entropy, std::uint64_t output_types);

/// ln(n), the double std::log gives: from a table for the small counts
/// every pair takes it of (three logarithms a pair).
double log_of_count(std::uint64_t n);

}  // namespace tdcone
