#include "tdcone/entropy/interval.hpp"

#include <algorithm>
#include <cmath>

namespace tdcone::entropy {

namespace {

// The q-quantile of sorted `values` (numpy's "linear" method).
double percentile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = at - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace

Interval interval_of(std::vector<double> values) {
  Interval interval;
  if (values.empty() || std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); })) return interval;
  const auto n = static_cast<double>(values.size());
  // Offsets from the first value: equal values give that value exactly, within its own percentiles.
  double offsets = 0;
  for (double v : values) offsets += v - values.front();
  interval.mean = values.front() + offsets / n;
  if (values.size() > 1) {
    double squares = 0;
    for (double v : values) squares += (v - interval.mean) * (v - interval.mean);
    interval.sd = std::sqrt(squares / (n - 1));
  }
  std::sort(values.begin(), values.end());
  interval.lo = percentile(values, 0.025);
  interval.hi = percentile(values, 0.975);
  return interval;
}

std::vector<double> best_shares(const std::vector<std::vector<double>>& values) {
  const std::size_t rows = values.empty() ? 0 : values.front().size();
  std::vector<double> shares(rows, 0.0);
  for (const auto& replicate : values) {
    double lowest = Interval::kNaN;
    for (double v : replicate)
      if (!std::isnan(v) && (std::isnan(lowest) || v < lowest)) lowest = v;
    if (std::isnan(lowest)) continue;
    const auto tied = static_cast<double>(std::count(replicate.begin(), replicate.end(), lowest));
    for (std::size_t row = 0; row < rows; ++row)
      if (replicate[row] == lowest) shares[row] += 1.0 / tied;
  }
  for (double& share : shares) share /= static_cast<double>(values.size());
  return shares;
}

std::size_t clear_best(const std::vector<Interval>& rows) {
  std::size_t best = kNoClearBest, with_interval = 0;
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (std::isnan(rows[row].mean)) continue;
    ++with_interval;
    if (best == kNoClearBest || rows[row].mean < rows[best].mean) best = row;
  }
  if (with_interval < 2) return kNoClearBest;
  for (std::size_t row = 0; row < rows.size(); ++row)
    if (row != best && !std::isnan(rows[row].mean) && !(rows[best].hi < rows[row].lo)) return kNoClearBest;
  return best;
}

}  // namespace tdcone::entropy
