#pragma once
// Conditional entropy and TD-CONE of an alignment count matrix (SPEC §3).
#include <span>

#include "tdcone/align/pair_alignment.hpp"

namespace tdcone::entropy {

/// Running sums over rows of M: T = Σ M and Σ_{x,y} M[x][y]·ln(R(x)/M[x][y]),
/// so H(Y|X) = weighted_log / total. Sums of row sets add up.
struct EntropySums {
  double total = 0.0;
  double weighted_log = 0.0;

  void add_row(std::span<const align::Cell> row);
  void add_row(std::span<const double> weights);
  EntropySums& operator+=(const EntropySums& other);
  double conditional_entropy() const { return total > 0.0 ? weighted_log / total : 0.0; }
};

/// H(Y|X) / ln(|V_y| + 1); 0 when there are no output types.
double tdcone_from_entropy(double cond_entropy, std::uint64_t output_types);

/// TD-CONE of one pair on its own (|V_y| = the pair's own output types).
double pair_tdcone(const align::PairMatrix& matrix, std::size_t output_types);

}  // namespace tdcone::entropy
