#include "tdcone/entropy/subset_scores.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "tdcone/core/exact_sum.hpp"
#include "tdcone/core/tdcone.hpp"
#include "tdcone/mpi/exchange.hpp"

namespace tdcone::entropy {

namespace {

using matrix::MatrixCell;
using mpi::WordMarks;

// The rows owned by this rank, one at a time: row sums R(x) of every group
// and subset, and the fixed-point weight of every subset in a column whose
// cells come from several groups.
class SubsetRows {
 public:
  SubsetRows(const PairGroups& groups, const matrix::MatrixLayout& layout)
      : layout_(layout), group_(groups.group_count(), 0), row_(groups.subset_count, 0), cell_(groups.subset_count, 0) {
    start_.push_back(0);  // the subsets of each group, flat
    for (const auto& subsets : groups.subsets_of_group) {
      list_.insert(list_.end(), subsets.begin(), subsets.end());
      start_.push_back(static_cast<std::uint32_t>(list_.size()));
    }
  }

  std::span<const std::uint32_t> subsets_of(std::uint32_t group) const {
    return {list_.data() + start_[group], list_.data() + start_[group + 1]};
  }

  /// Sums the row per group, then per subset.
  void start_row(std::span<const MatrixCell> row) {
    for (std::size_t i = 0; i < row.size();) {  // a run of cells of one group at a time (mostly the whole row)
      const std::uint32_t g = layout_.group(row[i].key);
      std::uint64_t sum = 0;
      for (; i < row.size() && layout_.group(row[i].key) == g; ++i) sum += row[i].weight;
      if (group_[g] == 0) groups_touched_.push_back(g);
      group_[g] += sum;
    }
    for (std::uint32_t g : groups_touched_)
      for (std::uint32_t s : subsets_of(g)) {
        if (row_[s] == 0) row_touched_.push_back(s);
        row_[s] += group_[g];
      }
  }
  std::uint64_t row_total(std::uint32_t s) const { return row_[s]; }
  const std::vector<std::uint32_t>& row_subsets() const { return row_touched_; }
  void end_row() {
    for (auto g : groups_touched_) group_[g] = 0;
    for (auto s : row_touched_) row_[s] = 0;
    groups_touched_.clear();
    row_touched_.clear();
  }

  /// Sums the cells of `row` from `i` with one column into cell_weight().
  void next_column(std::span<const MatrixCell> row, std::size_t& i) {
    for (auto s : cell_touched_) cell_[s] = 0;
    cell_touched_.clear();
    const std::uint32_t column = layout_.code_of(row[i].key);
    for (; i < row.size() && layout_.code_of(row[i].key) == column; ++i)
      for (std::uint32_t s : subsets_of(layout_.group(row[i].key))) {
        if (cell_[s] == 0) cell_touched_.push_back(s);
        cell_[s] += row[i].weight;
      }
  }
  const std::vector<std::uint32_t>& cell_subsets() const { return cell_touched_; }
  std::uint64_t cell_weight(std::uint32_t s) const { return cell_[s]; }

 private:
  const matrix::MatrixLayout layout_;  // a copy: its fields stay in registers in the loops over cells
  std::vector<std::uint32_t> list_, start_;
  std::vector<std::uint64_t> group_, row_, cell_;
  std::vector<std::uint32_t> groups_touched_, row_touched_, cell_touched_;
};

// m·ln m of a weight m, as the fixed-point term ExactSum::add makes of it,
// remembered for the weights met last: most cells hold one of a few weights
// (one pair's share of a row), and a remembered term is the very term that
// computing it again would give, so every sum keeps its bits.
class WeightLogTerms {
 public:
  explicit WeightLogTerms(const matrix::WeightScale& scale) : scale_(scale), slots_(std::size_t{1} << kSlotBits) {
    const ExactSum term_of_one = compute(1);  // every slot holds a valid term from the start
    for (Slot& slot : slots_) slot = {1, term_of_one};
  }

  const ExactSum& operator()(std::uint64_t weight) {
    Slot& slot = slots_[(weight * 0x9e3779b97f4a7c15ull) >> (64 - kSlotBits)];
    if (slot.weight != weight) slot = {weight, compute(weight)};
    return slot.term;
  }

 private:
  static constexpr unsigned kSlotBits = 12;  // 4096 slots, 96 KiB
  struct Slot {
    std::uint64_t weight;
    ExactSum term;
  };

  ExactSum compute(std::uint64_t weight) const {
    const double real = scale_.real(weight);
    ExactSum term;
    term.add(real * std::log(real));
    return term;
  }

  const matrix::WeightScale& scale_;
  std::vector<Slot> slots_;
};

// The number of pairs of every group over all ranks. Collective.
std::vector<std::uint64_t> pairs_per_group(MPI_Comm comm, const PairGroups& groups) {
  std::vector<std::uint64_t> pairs(groups.group_count(), 0);
  for (auto g : groups.group_of_pair)
    if (g != kNoGroup) ++pairs[g];
  return mpi::sum_all(comm, pairs);
}

}  // namespace

std::vector<SubsetScore> score_subsets(MPI_Comm comm, const matrix::PartitionedMatrix& matrix, const PairGroups& groups,
                                       const mpi::GlobalVocabulary& vocabulary,
                                       const matrix::PartitionedMatrix* reference, double lambda, const ProgressCallback& progress) {
  const std::size_t n_subsets = groups.subset_count, n_groups = groups.group_count();
  std::vector<std::vector<std::uint32_t>> groups_of_subset(n_subsets);
  for (std::uint32_t g = 0; g < n_groups; ++g)
    for (auto s : groups.subsets_of_group[g]) groups_of_subset[s].push_back(g);

  // Pair counts and output vocabularies per subset.
  const std::vector<std::uint64_t> pairs_of_group = pairs_per_group(comm, groups);
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

  const matrix::WeightScale& q_scale = matrix.scale();
  const matrix::MatrixLayout layout = matrix.layout();  // a copy, as in SubsetRows
  double total_p = 0.0;
  if (reference) {
    std::vector<ExactSum> sum(1);
    matrix::PartitionedMatrix::RowCursor rows(*reference);
    while (rows.next())
      for (const MatrixCell& c : rows.cells()) sum[0].add(reference->scale().real(c.weight));
    total_p = mpi::sum_all(comm, sum)[0];
  }

  // T·H(Y|X) = Σ_x Σ_y m·ln(R/m) = Σ_x R·ln R − Σ_cells m·ln m. With exact sums
  // the difference loses nothing, and m·ln m of a column whose cells come from
  // one group (nearly all) is one term for that group, whatever its subsets.
  std::vector<ExactSum> total(n_subsets), row_log(n_subsets), cell_log(n_subsets), group_cell_log(n_groups),
      kl_pq(n_subsets), kl_pu(n_subsets);
  std::vector<std::uint64_t> nnz(n_subsets, 0), group_nnz(n_groups, 0);
  SubsetRows rows(groups, layout);
  std::vector<std::uint64_t> q_at_p;  // per reference cell and subset: the corpus weight M_q[x][y]
  WeightLogTerms m_log_m(q_scale);

  // KL terms of one reference row x given every subset (docs/spec.md §4).
  auto add_relative_terms = [&](std::span<const MatrixCell> p_row) {
    const matrix::WeightScale& p_scale = reference->scale();
    std::uint64_t p_row_total = 0;
    for (const MatrixCell& c : p_row) p_row_total += c.weight;
    for (std::size_t j = 0; j < p_row.size(); ++j) {
      const double p_joint = p_scale.real(p_row[j].weight) / total_p;
      const double p_cond = static_cast<double>(p_row[j].weight) / static_cast<double>(p_row_total);
      for (std::size_t s = 0; s < n_subsets; ++s) {
        const double uniform = 1.0 / (static_cast<double>(union_types[s]) + 1.0);
        const std::uint64_t r = rows.row_total(static_cast<std::uint32_t>(s));
        const double q = r > 0 ? (1.0 - lambda) * static_cast<double>(q_at_p[j * n_subsets + s]) / static_cast<double>(r) +
                                     lambda * uniform
                               : uniform;
        kl_pq[s].add(p_joint * std::log(p_cond / q));
        kl_pu[s].add(p_joint * std::log(p_cond / uniform));
      }
    }
  };

  // A row sum R(x) of subset s: its part of T and of Σ_x R·ln R.
  const auto add_row_total = [&](std::uint32_t s, std::uint64_t row_total) {
    total[s].add(q_scale.real(row_total));
    row_log[s] += m_log_m(row_total);
  };

  matrix::PartitionedMatrix::RowCursor q_rows(matrix);
  std::optional<matrix::PartitionedMatrix::RowCursor> p_rows;
  bool p_valid = false;
  if (reference) p_rows.emplace(*reference), p_valid = p_rows->next();
  const matrix::MatrixLayout p_layout = reference ? reference->layout() : layout;
  const double all_rows = static_cast<double>(layout.rows);
  std::uint64_t rows_done = 0;
  while (q_rows.next()) {
    if ((++rows_done & 0xfff) == 0) progress.update(rows_done, rows_done / all_rows);
    // Reference rows with no corpus row: Q is uniform there.
    for (; p_valid && p_rows->position() < q_rows.position(); p_valid = p_rows->next()) add_relative_terms(p_rows->cells());
    const bool has_p = p_valid && p_rows->position() == q_rows.position();

    if (n_groups == 1 && !has_p) {
      // The usual row: one group, no reference row. A row's keys are
      // distinct, and with one group a key is its column, so every cell is
      // alone in its column and is one term of group 0, with nothing to note
      // for KL: one pass over the stored cells sums the row and the terms.
      std::uint64_t row_total = 0;
      ExactSum cells;
      q_rows.for_each_cell([&](std::uint32_t, std::uint64_t weight) {
        row_total += weight;
        cells += m_log_m(weight);
      });
      for (auto s : rows.subsets_of(0)) add_row_total(s, row_total);
      group_cell_log[0] += cells;
      group_nnz[0] += q_rows.size();
      continue;
    }
    const auto row = q_rows.cells();
    const auto p_row = has_p ? p_rows->cells() : std::span<const MatrixCell>{};
    rows.start_row(row);
    for (auto s : rows.row_subsets()) add_row_total(s, rows.row_total(s));
    q_at_p.assign(p_row.size() * n_subsets, 0);
    std::size_t j = 0;
    for (std::size_t i = 0; i < row.size();) {
      // Both rows are in the order of the column codes, which the two layouts share.
      const std::uint32_t column = layout.code_of(row[i].key);
      while (j < p_row.size() && p_layout.code_of(p_row[j].key) < column) ++j;
      const bool at_p = j < p_row.size() && p_layout.code_of(p_row[j].key) == column;
      if (i + 1 == row.size() || layout.code_of(row[i + 1].key) != column) {  // one group
        const std::uint32_t g = layout.group(row[i].key);
        group_cell_log[g] += m_log_m(row[i].weight);
        ++group_nnz[g];
        if (at_p)
          for (std::uint32_t s : rows.subsets_of(g)) q_at_p[j * n_subsets + s] = row[i].weight;
        ++i;
        continue;
      }
      rows.next_column(row, i);
      for (auto s : rows.cell_subsets()) {
        cell_log[s] += m_log_m(rows.cell_weight(s));
        ++nnz[s];
        if (at_p) q_at_p[j * n_subsets + s] = rows.cell_weight(s);
      }
    }
    if (has_p) {
      add_relative_terms(p_row);
      p_valid = p_rows->next();
    }
    rows.end_row();
  }
  for (; p_valid; p_valid = p_rows->next()) add_relative_terms(p_rows->cells());
  progress.finish(rows_done);

  std::vector<ExactSum> weighted_log(n_subsets);
  for (std::size_t s = 0; s < n_subsets; ++s) {
    weighted_log[s] = row_log[s];
    weighted_log[s] -= cell_log[s];
    for (auto g : groups_of_subset[s]) {
      weighted_log[s] -= group_cell_log[g];
      nnz[s] += group_nnz[g];
    }
  }
  const std::vector<double> totals = mpi::sum_all(comm, total), logs = mpi::sum_all(comm, weighted_log);
  nnz = mpi::sum_all(comm, nnz);
  std::vector<double> pq(n_subsets, 0.0), pu(n_subsets, 0.0);
  if (reference) {
    pq = mpi::sum_all(comm, kl_pq);
    pu = mpi::sum_all(comm, kl_pu);
  }
  std::vector<SubsetScore> scores(n_subsets);
  for (std::size_t s = 0; s < n_subsets; ++s) {
    SubsetScore& score = scores[s];
    for (auto g : groups_of_subset[s]) score.n_pairs += pairs_of_group[g];
    score.nnz = nnz[s];
    score.output_types = output_types[s];
    score.total = totals[s];
    if (score.n_pairs == 0) continue;  // no pair, no score: NaN (docs/spec.md §9), also relative to the reference
    score.cond_entropy = totals[s] > 0.0 ? logs[s] / totals[s] : 0.0;
    score.tdcone = tdcone_from_entropy(score.cond_entropy, output_types[s]);
    if (reference) {
      score.kl_pq = pq[s];
      score.kl_pu = pu[s];
      // KL_pu = 0 only when the reference is deterministic over a single outcome: nothing to explain.
      score.tdcone_rel = pu[s] != 0.0 ? pq[s] / pu[s] : 0.0;
    }
  }
  return scores;
}

}  // namespace tdcone::entropy
