#pragma once
// What a summary says of subsets compared (rank 0): their intervals over the
// replicates and whether one is clearly best; without replicates, that the
// values depend on size when sizes differ (docs/spec.md §5 replicates).
#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/entropy/replicate_sample.hpp"
#include "tdcone/results/replicate_tables.hpp"

namespace tdcone::cli {

/// The rows' intervals of the ranked metric with p_best, then the verdict:
/// "clearly best: ..." when one row's interval lies below every other's,
/// else "no clear best:" with the rows that were best in some replicate.
/// `names`: each row's name ("t=0.83", "shard 3").
void print_replicate_table(const results::TableIntervals& table, const entropy::ReplicateScores& replicates,
                           const std::vector<std::string>& names);

/// A warning naming the rows (of `sizes`, pairs per row) with fewer pairs
/// than the sample: their samples hold all their pairs.
void print_sample_shortfall(const std::vector<std::uint64_t>& sizes, std::uint64_t sample,
                            const std::vector<std::string>& names);

/// Whether the non-empty sizes are within 2x of each other (also when none
/// or one is non-empty): values compared whole are then not mostly size.
bool sizes_comparable(const std::vector<std::uint64_t>& sizes);

/// Without replicates: when the non-empty rows' sizes differ by more than
/// 2x, a note that TD-CONE and TD-CONE_REL depend on size, with the options
/// that compare at equal size. Returns whether it printed it.
bool print_size_caveat(const std::vector<std::uint64_t>& sizes, const std::string& what);

/// The corpus at each size of --at-sizes (its first table's row 0): the
/// ranked metric's mean and interval, a line a size; every subset is in /curves.
void print_curve(const std::vector<results::SizeCurvePoint>& curve);

}  // namespace tdcone::cli
