#include "tdcone/results/replicate_tables.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "tdcone/results/writer.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::results {

namespace {

// The replicates' values of one metric over some rows of one kind: [replicate][row].
std::vector<std::vector<double>> values_of(const entropy::ReplicateScores& replicates, const ReplicateMetric& metric,
                                           const std::vector<std::size_t>& subsets) {
  std::vector<std::vector<double>> values;
  for (const auto& scores : replicates.of_replicate) {
    std::vector<double>& row = values.emplace_back();
    for (std::size_t s : subsets) row.push_back(metric.of(scores[s]));
  }
  return values;
}

// The columns that /intervals and /curves share.
struct IntervalColumns {
  const schema::Column &table, &row, &metric, &mean, &sd, &lo, &hi;
};

// Rows of intervals, a row per table row and metric, written as
// IntervalColumns: table, row, metric, what `extra` writes, then the statistics.
struct IntervalRows {
  std::vector<std::string> table, metric;
  std::vector<std::uint64_t> row;
  std::vector<double> mean, sd, lo, hi;

  void add(const TableIntervals& t, std::size_t k, std::size_t m) {
    const entropy::Interval& interval = t.of_metric[m][k];
    table.push_back(t.table);
    row.push_back(k);
    metric.emplace_back(replicate_metrics()[m].name);
    mean.push_back(interval.mean);
    sd.push_back(interval.sd);
    lo.push_back(interval.lo);
    hi.push_back(interval.hi);
  }
  void write(SubsetTable& out, const IntervalColumns& columns, const std::function<void()>& extra) const {
    out.column(columns.table, table);
    out.column(columns.row, row);
    out.column(columns.metric, metric);
    extra();
    out.column(columns.mean, mean);
    out.column(columns.sd, sd);
    out.column(columns.lo, lo);
    out.column(columns.hi, hi);
  }
};

}  // namespace

const std::vector<ReplicateMetric>& replicate_metrics() {
  static const std::vector<ReplicateMetric> all = {
      {"tdcone", [](const entropy::SubsetScore& s) { return s.tdcone; }, false},
      {"kl_pq", [](const entropy::SubsetScore& s) { return s.kl_pq; }, true},
      {"kl_pu", [](const entropy::SubsetScore& s) { return s.kl_pu; }, true},
      {"tdcone_rel", [](const entropy::SubsetScore& s) { return s.tdcone_rel; }, true},
      {"bleu", [](const entropy::SubsetScore& s) { return s.diversity.bleu(); }, false},
      {"unigram_precision", [](const entropy::SubsetScore& s) { return s.diversity.unigram_precision(); }, false},
  };
  return all;
}

const char* ranked_metric(bool with_reference) { return with_reference ? "tdcone_rel" : "tdcone"; }

TableIntervals table_intervals(const entropy::ReplicateScores& replicates, const TableRows& of, bool with_reference) {
  const std::size_t first_subset = of.first_subset, rows = of.rows;
  const std::vector<std::uint32_t>& kinds = of.kinds;
  TableIntervals result;
  result.table = of.table;
  result.first_subset = first_subset;
  result.rows = rows;
  const auto& metrics = replicate_metrics();
  std::vector<std::size_t> all_rows(rows);
  for (std::size_t row = 0; row < rows; ++row) all_rows[row] = first_subset + row;
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    if (metrics[m].name == std::string(ranked_metric(with_reference))) result.ranked = m;
    const auto values = values_of(replicates, metrics[m], all_rows);
    auto& intervals = result.of_metric.emplace_back();
    for (std::size_t row = 0; row < rows; ++row) {
      std::vector<double> of_row;
      for (const auto& replicate : values) of_row.push_back(replicate[row]);
      intervals.push_back(entropy::interval_of(std::move(of_row)));
    }
  }
  // p_best within each kind of row.
  std::map<std::uint32_t, std::vector<std::size_t>> rows_of_kind;
  for (std::size_t row = 0; row < rows; ++row) rows_of_kind[kinds.empty() ? 0 : kinds[row]].push_back(row);
  result.p_best.assign(rows, 0.0);
  for (const auto& [kind, members] : rows_of_kind) {
    std::vector<std::size_t> subsets;
    for (std::size_t row : members) subsets.push_back(first_subset + row);
    const auto shares = entropy::best_shares(values_of(replicates, metrics[result.ranked], subsets));
    for (std::size_t k = 0; k < members.size(); ++k) result.p_best[members[k]] = shares[k];
  }
  // A row sampled whole has fewer pairs than the others and no spread: no fair comparison to call.
  bool equal_sizes = true;
  for (std::size_t row = 0; row < rows; ++row)
    if (replicates.sampled[first_subset + row] < replicates.sample && replicates.sampled[first_subset + row] > 0)
      equal_sizes = false;
  if (rows_of_kind.size() == 1 && equal_sizes) result.clear_best = entropy::clear_best(result.of_metric[result.ranked]);
  return result;
}

std::vector<std::uint32_t> label_row_kinds(const std::vector<std::string>& names) {
  std::vector<std::string> patterns;
  std::vector<std::uint32_t> kinds;
  for (const std::string& name : names) {
    std::string pattern;  // '*' where the row leaves a label free, 'v' where it fixes one
    bool start = true;
    for (std::size_t k = 0; k <= name.size(); ++k) {
      if (k == name.size() || name[k] == '|') {
        start = true;
        continue;
      }
      if (start) pattern += (name.compare(k, 2, "*|") == 0 || name.substr(k) == "*") ? '*' : 'v';
      start = false;
    }
    const auto found = std::find(patterns.begin(), patterns.end(), pattern);
    kinds.push_back(static_cast<std::uint32_t>(found - patterns.begin()));
    if (found == patterns.end()) patterns.push_back(pattern);
  }
  return kinds;
}

void write_table_replicate_columns(const boost::mpi::communicator& comm, hdf5::OutputFile& file,
                                   const TableIntervals& table, const std::vector<std::uint64_t>& sampled,
                                   const schema::Column* n_sampled, const schema::Column& p_best) {
  const bool writer = comm.rank() == 0;
  if (n_sampled) {
    std::vector<std::uint64_t> rows(sampled.begin() + static_cast<std::ptrdiff_t>(table.first_subset),
                                    sampled.begin() + static_cast<std::ptrdiff_t>(table.first_subset + table.rows));
    file.write_column(n_sampled->path(), writer ? std::span<const std::uint64_t>(rows) : std::span<const std::uint64_t>(),
                      0, rows.size());
  }
  file.write_column(p_best.path(), writer ? std::span<const double>(table.p_best) : std::span<const double>(), 0,
                    table.p_best.size());
}

void write_replicate_groups(const boost::mpi::communicator& comm, hdf5::OutputFile& file,
                            const entropy::ReplicateScores& replicates, const std::vector<TableIntervals>& tables,
                            const std::vector<entropy::SubsetScore>& values, bool with_reference) {
  const auto& metrics = replicate_metrics();
  {
    std::vector<std::string> table;
    std::vector<std::uint64_t> row, replicate, sampled;
    std::vector<std::vector<double>> metric_values(metrics.size());
    for (const TableIntervals& t : tables)
      for (std::size_t k = 0; k < t.rows; ++k)
        for (std::size_t r = 0; r < replicates.of_replicate.size(); ++r) {
          const entropy::SubsetScore& score = replicates.of_replicate[r][t.first_subset + k];
          table.push_back(t.table);
          row.push_back(k);
          replicate.push_back(replicates.first + r);
          sampled.push_back(score.n_pairs);
          for (std::size_t m = 0; m < metrics.size(); ++m) metric_values[m].push_back(metrics[m].of(score));
        }
    SubsetTable out(comm, file, schema::replicates::group);
    out.column(schema::replicates::table, table);
    out.column(schema::replicates::row, row);
    out.column(schema::replicates::replicate, replicate);
    out.column(schema::replicates::n_sampled, sampled);
    const schema::Column* columns[] = {&schema::replicates::tdcone, &schema::replicates::kl_pq,
                                       &schema::replicates::kl_pu, &schema::replicates::tdcone_rel,
                                       &schema::replicates::bleu, &schema::replicates::unigram_precision};
    for (std::size_t m = 0; m < metrics.size(); ++m)
      if (with_reference || !metrics[m].needs_reference) out.column(*columns[m], metric_values[m]);
    set_attribute(file, schema::replicates::sample, replicates.sample);
    set_attribute(file, schema::replicates::replicates, std::uint64_t{replicates.replicates});
    set_attribute(file, schema::replicates::seed, replicates.seed);
  }
  IntervalRows rows;
  std::vector<double> value;
  for (const TableIntervals& t : tables)
    for (std::size_t k = 0; k < t.rows; ++k)
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        if (metrics[m].needs_reference && !with_reference) continue;
        rows.add(t, k, m);
        value.push_back(metrics[m].of(values[t.first_subset + k]));
      }
  namespace iv = schema::intervals;
  SubsetTable out(comm, file, iv::group);
  rows.write(out, {iv::table, iv::row, iv::metric, iv::mean, iv::sd, iv::lo, iv::hi},
             [&] { out.column(iv::value, value); });
  set_attribute(file, schema::intervals::ranked_by, std::string(ranked_metric(with_reference)));
}

void write_curves(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::vector<SizeCurvePoint>& curve,
                  std::uint32_t replicates, std::uint64_t seed, bool with_reference) {
  const auto& metrics = replicate_metrics();
  IntervalRows rows;
  std::vector<std::uint64_t> size, sampled;
  for (const SizeCurvePoint& point : curve)
    for (const TableIntervals& t : point.tables)
      for (std::size_t k = 0; k < t.rows; ++k)
        for (std::size_t m = 0; m < metrics.size(); ++m) {
          const std::string name = metrics[m].name;
          if (name != "tdcone" && !(name == "tdcone_rel" && with_reference)) continue;
          rows.add(t, k, m);
          size.push_back(point.size);
          sampled.push_back(point.replicates.sampled[t.first_subset + k]);
        }
  namespace cv = schema::curves;
  SubsetTable out(comm, file, cv::group);
  rows.write(out, {cv::table, cv::row, cv::metric, cv::mean, cv::sd, cv::lo, cv::hi}, [&] {
    out.column(cv::size, size);
    out.column(cv::n_sampled, sampled);
  });
  set_attribute(file, cv::replicates, std::uint64_t{replicates});
  set_attribute(file, cv::seed, seed);
}

}  // namespace tdcone::results
