#include "tdcone/entropy/tdcone.hpp"

#include <cmath>

namespace tdcone::entropy {

double tdcone_from_entropy(double cond_entropy, std::uint64_t output_types) {
  if (output_types == 0) return 0.0;
  return cond_entropy / std::log(static_cast<double>(output_types) + 1.0);
}

double pair_tdcone(const align::PairMatrix& matrix, std::size_t output_types) {
  // H = Σ_x Σ_y M·ln(R(x)/M) / T: every term is non-negative (unlike R·ln R − Σ M·ln M).
  double total = 0.0, weighted_log = 0.0;
  for (std::size_t i = 0; i < matrix.rows.size(); ++i) {
    double row_total = 0.0;
    for (const align::Cell& cell : matrix.row(i)) row_total += cell.weight;
    for (const align::Cell& cell : matrix.row(i)) weighted_log += cell.weight * std::log(row_total / cell.weight);
    total += row_total;
  }
  return tdcone_from_entropy(total > 0.0 ? weighted_log / total : 0.0, output_types);
}

}  // namespace tdcone::entropy
