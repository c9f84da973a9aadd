#include "tdcone/label/balance_plan.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "tdcone/core/error.hpp"
#include "tdcone/label/labels.hpp"

namespace tdcone::label {

namespace {

using Counts = std::vector<std::uint64_t>;

constexpr int kMaxSweeps = 10'000;
constexpr double kFitTolerance = 1e-9;  // relative to T0, per label value

// Two significant digits are enough for a share in a message.
std::string short_number(double value) {
  std::ostringstream out;
  out << std::setprecision(2) << value;
  return out.str();
}

// Sums `weights` by the value label `label` takes in each combination.
template <class T>
std::vector<T> sums_by_value(const LabelCounts& lc, std::size_t label, const std::vector<T>& weights) {
  const std::size_t stride = combination_stride(lc.values_per_label, label), values = lc.values_per_label[label];
  std::vector<T> sums(values, T{});
  for (std::size_t k = 0; k < weights.size(); ++k) sums[k / stride % values] += weights[k];
  return sums;
}

// Population standard deviation of the shares part[k] / Σ part over the n
// combinations present in `counts` (part is 0 where counts is): sqrt(n·Σ part²
// - (Σ part)²) / (n·Σ part). The sums are exact integers, so equal parts give
// exactly 0 (a mean and mean of squares in doubles left ~1e-9 of rounding).
double share_std(const Counts& part, const Counts& counts) {
  unsigned __int128 n = 0, sum = 0, squares = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    if (counts[k] == 0) continue;
    ++n, sum += part[k], squares += static_cast<unsigned __int128>(part[k]) * part[k];
  }
  if (sum == 0) return 0;
  const unsigned __int128 spread = n * squares - sum * sum;  // >= 0 (Cauchy-Schwarz); exactly 0 when balanced
  // In x87's 64-bit mantissa, so that the one rounding to double that follows
  // gives the nearest double of the exact value (three double roundings can miss it by an ulp).
  const long double root = std::sqrt(static_cast<long double>(spread));
  return static_cast<double>(root / (static_cast<long double>(n) * static_cast<long double>(sum)));
}

// One unit each to the largest remainders (ties: smaller index first), never past a count.
template <class Key>
void give_leftover(Counts& quota, const Counts& counts, const std::vector<Key>& remainder, std::uint64_t leftover) {
  std::vector<std::size_t> order(quota.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (const std::size_t k : order) {
    if (leftover == 0) break;
    if (quota[k] < counts[k]) ++quota[k], --leftover;
  }
}

// Joint: every combination holding at least min_share of the lines goes down
// to the rarest such one (T); rarer combinations keep all their lines.
// `ids`: a label looks like ids (label::looks_like_ids, warned about when
// read), whose values no --min-share would balance.
void plan_joint(const Counts& counts, std::uint64_t total, double min_share, bool ids, BalancePlan& plan) {
  const double floor_lines = min_share * static_cast<double>(total);
  std::uint64_t common = 0, largest = 0;
  bool any_eligible = false;
  for (const std::uint64_t count : counts) {
    largest = std::max(largest, count);
    if (count > 0 && static_cast<double>(count) >= floor_lines) {
      common = any_eligible ? std::min(common, count) : count;
      any_eligible = true;
    }
  }
  if (!any_eligible)
    plan.warnings.push_back(cat("no combination holds ", Option::min_share, " ", min_share, " of the lines (the largest holds ",
                                short_number(static_cast<double>(largest) / static_cast<double>(total)),
                                "): nothing was down-sampled; ", ids ? "a label looks like ids, not a label (see its warning)"
                                                                   : cat("lower ", Option::min_share)));
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const bool eligible = any_eligible && counts[k] > 0 && static_cast<double>(counts[k]) >= floor_lines;
    plan.quota[k] = eligible ? common : counts[k];
    // An absent combination's target is what it would have got.
    plan.target[k] = static_cast<double>(eligible || (counts[k] == 0 && any_eligible) ? common : counts[k]);
    plan.under_represented[k] = eligible ? 0 : 1;
  }
}

// Skewed: `size` lines in the natural proportions, by largest remainder
// (Hamilton) in exact integer arithmetic.
void plan_skewed(const Counts& counts, std::uint64_t total, std::uint64_t size, BalancePlan& plan) {
  std::vector<unsigned __int128> remainder(counts.size());
  std::uint64_t given = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const unsigned __int128 scaled = static_cast<unsigned __int128>(size) * counts[k];
    plan.quota[k] = static_cast<std::uint64_t>(scaled / total);
    remainder[k] = scaled % total;
    plan.target[k] = static_cast<double>(size) * static_cast<double>(counts[k]) / static_cast<double>(total);
    given += plan.quota[k];
  }
  give_leftover(plan.quota, counts, remainder, size - given);
}

// Marginal: capped iterative proportional fitting towards T0 / n_L lines for
// every value of every label, with T0 = min over labels of n_L · (rarest value),
// the largest total a single label allows. The cap w_k <= counts[k] keeps the
// subset a subset. On the tests' cases (uniquely determined answers, also with
// structural zeros and binding caps) it converges to the hand answer within
// 1e-9 · T0 in at most ~100 sweeps, so T0 is never lowered. When no subset
// has uniform marginals at T0 (caps or zeros conflicting across labels), the
// fit stops at kMaxSweeps and a warning gives the remaining deviation: a
// lower T0 could at best help the cap conflicts and would shrink the subset.
// Where the answer empties a combination the approach is slow (~1/sweeps): the
// rounding below still lands on the answer, with a warning of a tiny deviation.
void plan_marginal(const LabelCounts& lc, BalancePlan& plan) {
  const Counts& counts = lc.counts;
  const std::size_t labels = lc.values_per_label.size();
  std::vector<std::uint8_t> fitted(labels, 0);
  double t0 = 0;
  bool any_fitted = false;
  for (std::size_t label = 0; label < labels; ++label) {
    const Counts marginal = sums_by_value(lc, label, counts);
    const std::uint64_t rarest = *std::min_element(marginal.begin(), marginal.end());
    if (rarest == 0) {
      plan.warnings.push_back(cat("label ", label, " has a value with no line: it is left out of the balance"));
      continue;
    }
    const double allowed = static_cast<double>(lc.values_per_label[label]) * static_cast<double>(rarest);
    t0 = any_fitted ? std::min(t0, allowed) : allowed;
    fitted[label] = 1, any_fitted = true;
  }
  std::vector<double> weight(counts.begin(), counts.end());
  // Max over fitted label values of |marginal - target|, or of that over the target.
  auto max_deviation = [&](bool relative) {
    double worst = 0;
    for (std::size_t label = 0; label < labels; ++label) {
      if (!fitted[label]) continue;
      const double target = t0 / static_cast<double>(lc.values_per_label[label]);
      for (const double sum : sums_by_value(lc, label, weight))
        worst = std::max(worst, std::abs(sum - target) / (relative ? target : 1.0));
    }
    return worst;
  };
  bool converged = !any_fitted;
  for (int sweep = 0; sweep < kMaxSweeps && !converged; ++sweep) {
    for (std::size_t label = 0; label < labels; ++label) {
      if (!fitted[label]) continue;
      const double target = t0 / static_cast<double>(lc.values_per_label[label]);
      const std::vector<double> sums = sums_by_value(lc, label, weight);
      const std::size_t stride = combination_stride(lc.values_per_label, label);
      for (std::size_t k = 0; k < weight.size(); ++k) {
        const double sum = sums[k / stride % lc.values_per_label[label]];
        if (sum > 0) weight[k] = std::min(static_cast<double>(counts[k]), weight[k] * target / sum);
      }
    }
    converged = max_deviation(false) <= kFitTolerance * t0;
  }
  if (!converged)
    plan.warnings.push_back(cat("marginal balance did not converge in ", kMaxSweeps, " sweeps: a label value is still ",
                                short_number(100 * max_deviation(true)), "% off its target"));
  // Integer quotas: floors (tolerating fit noise), then the rounded total's
  // leftover units to the largest fractional parts.
  std::vector<double> fraction(counts.size());
  std::uint64_t given = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    plan.quota[k] = std::min(counts[k], static_cast<std::uint64_t>(std::floor(weight[k] + 1e-9)));
    fraction[k] = weight[k] - static_cast<double>(plan.quota[k]);
    plan.target[k] = weight[k];
    given += plan.quota[k];
  }
  const auto rounded = static_cast<std::uint64_t>(std::llround(std::accumulate(weight.begin(), weight.end(), 0.0)));
  if (rounded > given) give_leftover(plan.quota, counts, fraction, rounded - given);
}

}  // namespace

std::size_t combination_stride(const std::vector<std::size_t>& values_per_label, std::size_t label) {
  std::size_t stride = 1;
  for (std::size_t later = label + 1; later < values_per_label.size(); ++later) stride *= values_per_label[later];
  return stride;
}

BalanceMode balance_mode_from_name(const std::string& name) {
  if (name == "joint") return BalanceMode::joint;
  if (name == "marginal") return BalanceMode::marginal;
  if (name == "skewed") return BalanceMode::skewed;
  throw UsageError(cat(Option::mode, " must be joint, marginal or skewed: got '", name, "'"));
}

BalancePlan plan_balance(const LabelCounts& lc, const BalanceRequest& request) {
  const Counts& counts = lc.counts;
  std::size_t combinations = 1;
  for (const std::size_t values : lc.values_per_label) combinations *= values;
  if (lc.values_per_label.empty() || combinations == 0 || counts.size() != combinations)
    throw std::logic_error("plan_balance: counts do not match the labels' values");
  const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  if (total == 0) throw UsageError("no labelled line to balance");
  if (!(request.min_share >= 0 && request.min_share < 1))  // NaN fails too
    throw UsageError(cat(Option::min_share, " must be in [0, 1): got ", request.min_share));
  if (request.mode == BalanceMode::skewed && request.size > total)
    throw UsageError(cat(Option::size, " ", request.size, " is more than the ", total, " labelled lines"));

  BalancePlan plan;
  plan.quota.assign(combinations, 0);
  plan.target.assign(combinations, 0);
  plan.under_represented.assign(combinations, 0);
  plan.total_before = total;
  const bool ids = std::ranges::any_of(lc.values_per_label, [&](std::size_t values) { return looks_like_ids(values, total); });
  switch (request.mode) {
    case BalanceMode::joint: plan_joint(counts, total, request.min_share, ids, plan); break;
    case BalanceMode::marginal: plan_marginal(lc, plan); break;
    case BalanceMode::skewed: {
      std::uint64_t size = request.size;
      if (size == 0) {  // the joint subset's size, for a fair comparison (the paper's Table 1)
        BalancePlan joint = plan;
        plan_joint(counts, total, request.min_share, ids, joint);
        size = std::accumulate(joint.quota.begin(), joint.quota.end(), std::uint64_t{0});
      }
      plan_skewed(counts, total, size, plan);
      break;
    }
  }

  plan.total_after = std::accumulate(plan.quota.begin(), plan.quota.end(), std::uint64_t{0});
  const auto after = static_cast<double>(plan.total_after);
  plan.share_std_before = share_std(counts, counts);
  plan.share_std_after = share_std(plan.quota, counts);
  for (std::size_t label = 0; label < lc.values_per_label.size(); ++label) {
    const double uniform = 1.0 / static_cast<double>(lc.values_per_label[label]);
    double worst = 0;
    for (const std::uint64_t sum : sums_by_value(lc, label, plan.quota))
      worst = std::max(worst, std::abs((after > 0 ? static_cast<double>(sum) / after : 0) - uniform));
    plan.marginal_deviation.push_back(worst);
  }
  return plan;
}

}  // namespace tdcone::label
