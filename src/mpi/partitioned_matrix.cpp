#include "tdcone/mpi/partitioned_matrix.hpp"

#include <algorithm>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

namespace {
struct WireCell {
  std::uint32_t row;
  std::uint32_t column;
  double weight;
};
}  // namespace

PartitionedMatrix PartitionedMatrix::reduce(MPI_Comm comm, const align::LocalCountMatrix& local,
                                            const GlobalVocabulary& vocabulary) {
  int n_ranks = 1;
  MPI_Comm_size(comm, &n_ranks);
  std::vector<std::vector<WireCell>> outbox(n_ranks);
  for (const auto& [key, weight] : local.cells()) {
    const std::uint32_t row = vocabulary.global_id[align::LocalCountMatrix::row_of(key)];
    const std::uint32_t column = vocabulary.global_id[align::LocalCountMatrix::column_of(key)];
    outbox[vocabulary.owner(row)].push_back({row, column, weight});
  }
  auto inbox = all_to_all(comm, outbox);
  outbox = {};

  // Stable: equal cells are summed in source-rank order, the same on every run.
  auto& cells = inbox.records;
  std::stable_sort(cells.begin(), cells.end(), [](const WireCell& a, const WireCell& b) {
    return a.row != b.row ? a.row < b.row : a.column < b.column;
  });

  PartitionedMatrix matrix;
  for (std::size_t i = 0; i < cells.size();) {
    const WireCell& first = cells[i];
    double weight = 0.0;
    for (; i < cells.size() && cells[i].row == first.row && cells[i].column == first.column; ++i)
      weight += cells[i].weight;
    if (matrix.row_ids_.empty() || matrix.row_ids_.back() != first.row) {
      if (!matrix.row_ids_.empty()) matrix.row_start_.push_back(matrix.columns_.size());
      matrix.row_ids_.push_back(first.row);
    }
    matrix.columns_.push_back(first.column);
    matrix.weights_.push_back(weight);
  }
  if (!matrix.row_ids_.empty()) matrix.row_start_.push_back(matrix.columns_.size());
  return matrix;
}

std::span<const std::uint32_t> PartitionedMatrix::columns(std::size_t i) const {
  return {columns_.data() + row_start_[i], columns_.data() + row_start_[i + 1]};
}

std::span<const double> PartitionedMatrix::weights(std::size_t i) const {
  return {weights_.data() + row_start_[i], weights_.data() + row_start_[i + 1]};
}

entropy::EntropySums PartitionedMatrix::entropy_sums() const {
  entropy::EntropySums sums;
  for (std::size_t i = 0; i < row_count(); ++i) sums.add_row(weights(i));
  return sums;
}

CorpusEntropy corpus_entropy(MPI_Comm comm, const PartitionedMatrix& matrix, std::uint64_t output_types) {
  const entropy::EntropySums local = matrix.entropy_sums();
  CorpusEntropy result;
  result.total = sum_all(comm, local.total);
  const double weighted_log = sum_all(comm, local.weighted_log);
  result.cond_entropy = result.total > 0.0 ? weighted_log / result.total : 0.0;
  result.tdcone = entropy::tdcone_from_entropy(result.cond_entropy, output_types);
  result.nnz = sum_all(comm, matrix.nnz());
  return result;
}

}  // namespace tdcone::mpi
