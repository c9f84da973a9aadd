#pragma once
// How many lines of each label combination a balanced or skewed subset keeps
// (the multi-style balancing paper, its Table 1). Pure arithmetic on global
// counts: every rank computes the same plan from the same all-reduced counts.
#include <cstdint>
#include <string>
#include <vector>

namespace tdcone::label {

enum class BalanceMode {
  joint,     // every combination down to the rarest one at or above the floor
  marginal,  // each label's values equally represented (capped IPF)
  skewed,    // the natural distribution at a given total size
};

/// Mode by name ("joint", "marginal", "skewed"); throws UsageError for others.
BalanceMode balance_mode_from_name(const std::string& name);

/// Combinations are the cells of the product of every label's values,
/// numbered in mixed radix with the first label varying slowest:
/// k = ((v0 · n1) + v1) · n2 + v2 ...
struct LabelCounts {
  std::vector<std::size_t> values_per_label;  // n_L >= 1 for each label
  std::vector<std::uint64_t> counts;          // lines of each combination (0: absent); size = Π n_L
};

/// Combination k has value k / stride % n_L of label L, stride = the product
/// of the later labels' value counts.
std::size_t combination_stride(const std::vector<std::size_t>& values_per_label, std::size_t label);

struct BalanceRequest {
  BalanceMode mode = BalanceMode::joint;
  double min_share = 0.05;  // joint floor: a combination with a smaller share of the lines keeps all of them
  std::uint64_t size = 0;   // skewed: total size; 0 = the joint mode's total (same min_share)
};

struct BalancePlan {
  std::vector<std::uint64_t> quota;  // lines kept per combination, <= counts[k]
  // What the mode aimed at, per combination: joint: the common size, or the
  // count of an under-represented combination; marginal: the fitted weight;
  // skewed: size · count / total (not rounded).
  std::vector<double> target;
  std::vector<std::uint8_t> under_represented;  // joint: share below min_share, absent ones included
  std::uint64_t total_before = 0, total_after = 0;
  // Population standard deviation of the shares count/total (before) and
  // quota/total_after (after) over the combinations present before.
  double share_std_before = 0, share_std_after = 0;
  // Per label: max over its values of |share of the value - 1/n_L| in the
  // subset (every mode; marginal mode drives it towards 0).
  std::vector<double> marginal_deviation;
  // Messages for the user (empty when none): no combination reaches the floor, IPF did not converge, ...
  std::vector<std::string> warnings;
};

/// The quotas of `request.mode` for `counts`. Throws UsageError for a bad
/// request (min_share outside [0, 1), a skewed size above the total, no line).
BalancePlan plan_balance(const LabelCounts& counts, const BalanceRequest& request);

}  // namespace tdcone::label
