#include "tdcone/entropy/tdcone.hpp"

#include <cmath>

namespace tdcone::entropy {

namespace {
template <class Weights>
void add_weights(EntropySums& sums, const Weights& row, auto weight_of) {
  double row_total = 0.0;
  for (const auto& cell : row) row_total += weight_of(cell);
  if (row_total <= 0.0) return;
  // Σ m·ln(R/m) keeps every term non-negative, unlike R·ln R − Σ m·ln m.
  for (const auto& cell : row) {
    const double m = weight_of(cell);
    if (m > 0.0) sums.weighted_log += m * std::log(row_total / m);
  }
  sums.total += row_total;
}
}  // namespace

void EntropySums::add_row(std::span<const align::Cell> row) {
  add_weights(*this, row, [](const align::Cell& c) { return c.weight; });
}

void EntropySums::add_row(std::span<const double> weights) {
  add_weights(*this, weights, [](double w) { return w; });
}

EntropySums& EntropySums::operator+=(const EntropySums& other) {
  total += other.total;
  weighted_log += other.weighted_log;
  return *this;
}

double tdcone_from_entropy(double cond_entropy, std::uint64_t output_types) {
  if (output_types == 0) return 0.0;
  return cond_entropy / std::log(static_cast<double>(output_types) + 1.0);
}

double pair_tdcone(const align::PairMatrix& matrix, std::size_t output_types) {
  EntropySums sums;
  for (std::size_t i = 0; i < matrix.rows.size(); ++i) sums.add_row(matrix.row(i));
  return tdcone_from_entropy(sums.conditional_entropy(), output_types);
}

}  // namespace tdcone::entropy
