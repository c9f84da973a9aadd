#pragma once
// What the replicates say about each row of a subset table: intervals,
// p_best and whether a best row is clear; written as /replicates (every
// replicate's values) and /intervals (docs/spec.md §5 replicates, §8).
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/entropy/interval.hpp"
#include "tdcone/entropy/replicate_sample.hpp"
#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::results {

/// A metric a replicate reports, in the order of /replicates' columns.
struct ReplicateMetric {
  const char* name;  // "tdcone_rel", the column's
  double (*of)(const entropy::SubsetScore&);
  bool needs_reference;
};
const std::vector<ReplicateMetric>& replicate_metrics();

/// The metric p_best ranks by (lowest best): tdcone_rel with a reference, else tdcone.
const char* ranked_metric(bool with_reference);

/// One table's rows over the replicates.
struct TableIntervals {
  std::string table;             // as /replicates table: "sweep"
  std::size_t first_subset = 0;  // the subset of row 0
  std::size_t rows = 0;
  std::vector<std::vector<entropy::Interval>> of_metric;  // [metric of replicate_metrics()][row]
  std::vector<double> p_best;                              // per row, of the ranked metric
  std::size_t clear_best = entropy::kNoClearBest;          // a row clearly best by the ranked metric, if any
  std::size_t ranked = 0;                                  // the ranked metric's index in of_metric

  const entropy::Interval& ranked_interval(std::size_t row) const { return of_metric[ranked][row]; }
};

/// Which rows of a subset table the replicates' subsets are: rows
/// [first_subset, first_subset + rows). Rows of one kind (kinds[row]; empty:
/// all of one kind) are ranked among themselves for p_best.
struct TableRows {
  std::string table;  // as /replicates table: "sweep"
  std::size_t first_subset = 0;
  std::size_t rows = 0;
  std::vector<std::uint32_t> kinds;
};

/// The rows of `of` over `replicates`. A clear best is only looked for among
/// rows all of one kind, each with a full sample (a row smaller than the
/// sample is sampled whole: a smaller size and no spread, no fair comparison).
TableIntervals table_intervals(const entropy::ReplicateScores& replicates, const TableRows& of, bool with_reference);

/// The kind of each /labels row for p_best: the labels it fixes ("formal|*"
/// and "casual|*" are one kind, "formal|happy" another).
std::vector<std::uint32_t> label_row_kinds(const std::vector<std::string>& names);

/// A subset table's own columns from its replicates: `n_sampled` (when the
/// table has none yet) and `p_best`, into the table's group, written. Collective.
void write_table_replicate_columns(const boost::mpi::communicator& comm, hdf5::OutputFile& file,
                                   const TableIntervals& table, const std::vector<std::uint64_t>& sampled,
                                   const schema::Column* n_sampled, const schema::Column& p_best);

/// The tables' rows at one sample size (--at-sizes).
struct SizeCurvePoint {
  std::uint64_t size = 0;
  entropy::ReplicateScores replicates;
  std::vector<TableIntervals> tables;
};

/// /curves: a row per table row, size and metric (TD-CONE, and TD-CONE_REL
/// with a reference) with its replicates' mean, sd and percentiles. Collective.
void write_curves(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::vector<SizeCurvePoint>& curve,
                  std::uint32_t replicates, std::uint64_t seed, bool with_reference);

/// /replicates and /intervals for `tables`; `values`: the subsets' own scores
/// (the tables' columns). Collective.
void write_replicate_groups(const boost::mpi::communicator& comm, hdf5::OutputFile& file,
                            const entropy::ReplicateScores& replicates, const std::vector<TableIntervals>& tables,
                            const std::vector<entropy::SubsetScore>& values, bool with_reference);

}  // namespace tdcone::results
