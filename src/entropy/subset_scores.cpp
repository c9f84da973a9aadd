#include "tdcone/entropy/subset_scores.hpp"

#include <cmath>
#include <span>

#include "tdcone/entropy/tdcone.hpp"
#include "tdcone/mpi/exchange.hpp"

namespace tdcone::entropy {

namespace {

using Cell = mpi::PartitionedMatrix::Cell;
using mpi::WordMarks;

// Walks the rows owned by this rank, forming for each (row, column) the
// weight of every subset from the weights of its groups.
class SubsetRows {
 public:
  SubsetRows(const PairGroups& groups) : groups_(groups), cell_(groups.subset_count, 0.0), row_(groups.subset_count, 0.0) {}

  /// Sums the cells of `row` from `i` with one column into cell_weight(); returns the column.
  std::uint32_t next_column(std::span<const Cell> row, std::size_t& i) {
    clear_cell();
    const std::uint32_t column = row[i].column;
    for (; i < row.size() && row[i].column == column; ++i)
      for (std::uint32_t s : groups_.subsets_of_group[row[i].group]) {
        if (cell_[s] == 0.0) cell_touched_.push_back(s);
        cell_[s] += row[i].weight;
      }
    return column;
  }
  void clear_cell() {
    for (auto s : cell_touched_) cell_[s] = 0.0;
    cell_touched_.clear();
  }
  const std::vector<std::uint32_t>& cell_subsets() const { return cell_touched_; }
  double cell_weight(std::uint32_t s) const { return cell_[s]; }

  /// Row sums R(x) per subset (0 where the subset has no such row).
  void add_to_row(std::uint32_t s, double w) {
    if (row_[s] == 0.0) row_touched_.push_back(s);
    row_[s] += w;
  }
  double row_total(std::uint32_t s) const { return row_[s]; }
  const std::vector<std::uint32_t>& row_subsets() const { return row_touched_; }
  void clear_row() {
    for (auto s : row_touched_) row_[s] = 0.0;
    row_touched_.clear();
  }

 private:
  const PairGroups& groups_;
  std::vector<double> cell_, row_;
  std::vector<std::uint32_t> cell_touched_, row_touched_;
};

}  // namespace

std::vector<SubsetScore> score_subsets(MPI_Comm comm, const mpi::PartitionedMatrix& matrix, const PairGroups& groups,
                                       const mpi::GlobalVocabulary& vocabulary,
                                       const mpi::PartitionedMatrix* reference, double lambda) {
  const std::size_t n_subsets = groups.subset_count;
  std::vector<std::vector<std::uint32_t>> groups_of_subset(n_subsets);
  for (std::uint32_t g = 0; g < groups.group_count(); ++g)
    for (auto s : groups.subsets_of_group[g]) groups_of_subset[s].push_back(g);

  // Pair counts and output vocabularies per subset.
  std::vector<std::uint64_t> pairs_per_group(groups.group_count(), 0);
  for (auto g : groups.group_of_pair)
    if (g != kNoGroup) ++pairs_per_group[g];
  pairs_per_group = mpi::sum_all(comm, pairs_per_group);
  auto is_output_of = [&](std::span<const std::uint64_t> marks, std::size_t s) {
    for (auto g : groups_of_subset[s])
      if (WordMarks::test(marks, WordMarks::group_output(g))) return true;
    return false;
  };
  const auto output_types = vocabulary.count(comm, n_subsets, is_output_of);
  std::vector<std::uint64_t> union_types(n_subsets, 0);
  if (reference)
    union_types = vocabulary.count(comm, n_subsets, [&](std::span<const std::uint64_t> marks, std::size_t s) {
      return WordMarks::test(marks, WordMarks::reference_output) || is_output_of(marks, s);
    });

  double reference_total = 0.0;
  if (reference)
    for (std::size_t r = 0; r < reference->row_count(); ++r)
      for (const Cell& c : reference->row(r)) reference_total += c.weight;
  const double total_p = reference ? mpi::sum_all(comm, reference_total) : 0.0;

  std::vector<double> total(n_subsets, 0.0), weighted_log(n_subsets, 0.0), kl_pq(n_subsets, 0.0),
      kl_pu(n_subsets, 0.0);
  std::vector<std::uint64_t> nnz(n_subsets, 0);
  SubsetRows rows(groups);
  std::vector<double> q_at_p;  // per reference cell and subset: the corpus weight M_q[x][y]

  // KL terms of one reference row x given every subset (SPEC §4).
  auto add_relative_terms = [&](std::span<const Cell> p_row) {
    double p_row_total = 0.0;
    for (const Cell& c : p_row) p_row_total += c.weight;
    for (std::size_t j = 0; j < p_row.size(); ++j) {
      const double p_joint = p_row[j].weight / total_p, p_cond = p_row[j].weight / p_row_total;
      for (std::size_t s = 0; s < n_subsets; ++s) {
        const double uniform = 1.0 / (static_cast<double>(union_types[s]) + 1.0);
        const double r = rows.row_total(static_cast<std::uint32_t>(s));
        const double q = r > 0.0 ? (1.0 - lambda) * q_at_p[j * n_subsets + s] / r + lambda * uniform : uniform;
        kl_pq[s] += p_joint * std::log(p_cond / q);
        kl_pu[s] += p_joint * std::log(p_cond / uniform);
      }
    }
  };

  std::size_t p = 0;  // next reference row
  const std::size_t p_rows = reference ? reference->row_count() : 0;
  for (std::size_t r = 0; r < matrix.row_count(); ++r) {
    const auto row = matrix.row(r);
    // Reference rows with no corpus row: Q is uniform there.
    for (; p < p_rows && reference->row_id(p) < matrix.row_id(r); ++p) add_relative_terms(reference->row(p));
    const bool has_p = p < p_rows && reference->row_id(p) == matrix.row_id(r);
    const auto p_row = has_p ? reference->row(p) : std::span<const Cell>{};

    // Pass 1: row sums and non-zero cells per subset.
    for (std::size_t i = 0; i < row.size();) {
      rows.next_column(row, i);
      for (auto s : rows.cell_subsets()) {
        rows.add_to_row(s, rows.cell_weight(s));
        ++nnz[s];
      }
    }
    // Pass 2: Σ m·ln(R/m), and the corpus weights at the reference's cells.
    q_at_p.assign(p_row.size() * n_subsets, 0.0);
    std::size_t j = 0;
    for (std::size_t i = 0; i < row.size();) {
      const std::uint32_t column = rows.next_column(row, i);
      for (auto s : rows.cell_subsets()) {
        const double m = rows.cell_weight(s);
        weighted_log[s] += m * std::log(rows.row_total(s) / m);
      }
      while (j < p_row.size() && p_row[j].column < column) ++j;
      if (j < p_row.size() && p_row[j].column == column)
        for (auto s : rows.cell_subsets()) q_at_p[j * n_subsets + s] = rows.cell_weight(s);
    }
    rows.clear_cell();
    for (auto s : rows.row_subsets()) total[s] += rows.row_total(s);
    if (has_p) {
      add_relative_terms(p_row);
      ++p;
    }
    rows.clear_row();
  }
  for (; p < p_rows; ++p) add_relative_terms(reference->row(p));

  total = mpi::sum_all(comm, total);
  weighted_log = mpi::sum_all(comm, weighted_log);
  nnz = mpi::sum_all(comm, nnz);
  if (reference) {
    kl_pq = mpi::sum_all(comm, kl_pq);
    kl_pu = mpi::sum_all(comm, kl_pu);
  }
  std::vector<SubsetScore> scores(n_subsets);
  for (std::size_t s = 0; s < n_subsets; ++s) {
    SubsetScore& score = scores[s];
    for (auto g : groups_of_subset[s]) score.n_pairs += pairs_per_group[g];
    score.nnz = nnz[s];
    score.output_types = output_types[s];
    score.total = total[s];
    score.cond_entropy = total[s] > 0.0 ? weighted_log[s] / total[s] : 0.0;
    score.tdcone = tdcone_from_entropy(score.cond_entropy, output_types[s]);
    if (reference) {
      score.kl_pq = kl_pq[s];
      score.kl_pu = kl_pu[s];
      // KL_pu = 0 only when the reference is deterministic over a single outcome: nothing to explain.
      score.tdcone_rel = kl_pu[s] != 0.0 ? kl_pq[s] / kl_pu[s] : 0.0;
    }
  }
  return scores;
}

}  // namespace tdcone::entropy
