#pragma once
// What a set of replicate values says about one subset: their mean, spread
// and a 95 % interval, and how often each subset is the best (docs/spec.md
// §5 replicates).
#include <cstddef>
#include <limits>
#include <vector>

namespace tdcone::entropy {

struct Interval {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double mean = kNaN;
  double sd = kNaN;  // with R - 1 in the denominator; NaN for one value
  double lo = kNaN;  // the 2.5 % percentile
  double hi = kNaN;  // the 97.5 % percentile
};

/// The interval of `values`. Percentiles interpolate linearly between the
/// sorted values at rank q·(R − 1), as numpy.percentile does by default.
/// Any NaN value (a sample without pairs) makes every figure NaN.
Interval interval_of(std::vector<double> values);

/// p_best of every row: the share of replicates in which the row has the
/// lowest value. values[r][row] is replicate r's value of a row. A NaN is
/// never best; rows tied for the lowest share that replicate equally; a
/// replicate in which every row is NaN counts for none.
std::vector<double> best_shares(const std::vector<std::vector<double>>& values);

/// Whether the row with the lowest mean is clearly the best: its interval
/// lies wholly below every other row's (hi below the others' lo). Returns
/// the row, or `npos` when no row is (also with fewer than two rows with an
/// interval).
inline constexpr std::size_t kNoClearBest = static_cast<std::size_t>(-1);
std::size_t clear_best(const std::vector<Interval>& rows);

}  // namespace tdcone::entropy
