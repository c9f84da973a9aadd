#include "tdcone/cli/replicate_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace tdcone::cli {

void print_replicate_table(const results::TableIntervals& table, const entropy::ReplicateScores& replicates,
                           const std::vector<std::string>& names) {
  const std::string metric = results::replicate_metrics()[table.ranked].name;
  std::printf("  %zu replicates of %llu pairs a subset (--sample, --replicates): %s, lowest best\n",
              replicates.of_replicate.size(), (unsigned long long)replicates.sample, metric.c_str());
  std::size_t width = 4;
  for (const std::string& name : names) width = std::max(width, name.size());
  std::printf("  %-*s %10s %10s %10s %10s %7s\n", static_cast<int>(width), "", "n_sampled", "mean", "2.5%", "97.5%",
              "p_best");
  for (std::size_t row = 0; row < table.rows; ++row) {
    const entropy::Interval& interval = table.ranked_interval(row);
    std::printf("  %-*s %10llu %10.7f %10.7f %10.7f %7.3f\n", static_cast<int>(width), names[row].c_str(),
                (unsigned long long)replicates.sampled[table.first_subset + row], interval.mean, interval.lo,
                interval.hi, table.p_best[row]);
  }
  if (table.rows < 2) return;
  if (table.clear_best != entropy::kNoClearBest) {
    std::printf("  clearly best: %s (its 95%% interval of %s lies below every other's)\n",
                names[table.clear_best].c_str(), metric.c_str());
    return;
  }
  std::string whole;
  for (std::size_t row = 0; row < table.rows; ++row) {
    const std::uint64_t sampled = replicates.sampled[table.first_subset + row];
    if (sampled > 0 && sampled < replicates.sample) whole += (whole.empty() ? "" : ", ") + names[row];
  }
  if (!whole.empty()) {
    std::printf("  no verdict: %s %s fewer pairs than a sample, so %s compared at a smaller size and without spread: "
                "give --sample auto (half the smallest subset) or a smaller --sample\n",
                whole.c_str(), whole.find(',') == std::string::npos ? "has" : "have",
                whole.find(',') == std::string::npos ? "it is" : "they are");
    return;
  }
  std::vector<std::size_t> order(table.rows);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return table.p_best[a] > table.p_best[b]; });
  std::string candidates;
  for (std::size_t row : order) {
    if (!(table.p_best[row] > 0)) break;
    char share[32];
    std::snprintf(share, sizeof share, "%.2f", table.p_best[row]);
    candidates += (candidates.empty() ? "" : ", ") + names[row] + " (p_best " + share + ")";
  }
  std::printf("  no clear best (the intervals overlap): %s\n",
              candidates.empty() ? "no row has a value" : candidates.c_str());
}

void print_sample_shortfall(const std::vector<std::uint64_t>& sizes, std::uint64_t sample,
                            const std::vector<std::string>& names) {
  std::string short_rows;
  std::size_t count = 0;
  for (std::size_t row = 0; row < sizes.size(); ++row)
    if (sizes[row] < sample) {
      ++count;
      if (count <= 10) short_rows += (short_rows.empty() ? "" : ", ") + names[row] + " (" + std::to_string(sizes[row]) + ")";
    }
  if (count == 0) return;
  std::printf("  warning: %zu subset%s fewer than the %llu pairs of a sample, sampled whole (n_sampled): %s%s\n", count,
              count == 1 ? " has" : "s have", (unsigned long long)sample, short_rows.c_str(), count > 10 ? ", ..." : "");
}

namespace {

// The smallest and largest non-empty size (0, 0 when every one is empty).
std::pair<std::uint64_t, std::uint64_t> size_range(const std::vector<std::uint64_t>& sizes) {
  std::uint64_t smallest = 0, largest = 0;
  for (std::uint64_t size : sizes)
    if (size > 0) {
      smallest = smallest == 0 ? size : std::min(smallest, size);
      largest = std::max(largest, size);
    }
  return {smallest, largest};
}

}  // namespace

bool sizes_comparable(const std::vector<std::uint64_t>& sizes) {
  const auto [smallest, largest] = size_range(sizes);
  return largest <= 2 * smallest;
}

bool print_size_caveat(const std::vector<std::uint64_t>& sizes, const std::string& what) {
  if (sizes_comparable(sizes)) return false;
  const auto [smallest, largest] = size_range(sizes);
  std::printf("  note: these %s hold %llu to %llu pairs (%.1fx). TD-CONE and TD-CONE_REL depend on how many pairs they "
              "are computed from: compare them at an equal size, with intervals, by adding --sample auto "
              "--replicates 20\n",
              what.c_str(), (unsigned long long)smallest, (unsigned long long)largest,
              static_cast<double>(largest) / static_cast<double>(smallest));
  return true;
}

void print_curve(const std::vector<results::SizeCurvePoint>& curve) {
  if (curve.empty() || curve.front().tables.empty()) return;
  const results::TableIntervals& first = curve.front().tables.front();
  std::printf("  the corpus by sample size (--at-sizes; every subset in /curves): %s, %zu sample%s a size\n",
              results::replicate_metrics()[first.ranked].name, curve.front().replicates.of_replicate.size(),
              curve.front().replicates.of_replicate.size() == 1 ? "" : "s");
  std::printf("  %10s %10s %10s %10s %10s\n", "size", "n_sampled", "mean", "2.5%", "97.5%");
  for (const results::SizeCurvePoint& point : curve) {
    const results::TableIntervals& corpus = point.tables.front();
    const entropy::Interval& interval = corpus.ranked_interval(0);
    std::printf("  %10llu %10llu %10.7f %10.7f %10.7f\n", (unsigned long long)point.size,
                (unsigned long long)point.replicates.sampled[corpus.first_subset], interval.mean, interval.lo,
                interval.hi);
  }
}

}  // namespace tdcone::cli
