#include "tdcone/mpi/partitioned_matrix.hpp"

#include <algorithm>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

namespace {
struct WireCell {
  std::uint32_t row;
  std::uint32_t column;
  std::uint32_t group;
  float pad_;  // keeps the record 24 bytes with an aligned weight
  double weight;
};
}  // namespace

PartitionedMatrix PartitionedMatrix::reduce(MPI_Comm comm, std::span<const align::LocalCountMatrix> groups,
                                            const GlobalVocabulary& vocabulary) {
  int n_ranks = 1;
  MPI_Comm_size(comm, &n_ranks);
  std::vector<std::vector<WireCell>> outbox(n_ranks);
  for (std::uint32_t g = 0; g < groups.size(); ++g)
    for (const auto& [key, weight] : groups[g].cells()) {
      const std::uint32_t row = vocabulary.global_id[align::LocalCountMatrix::row_of(key)];
      const std::uint32_t column = vocabulary.global_id[align::LocalCountMatrix::column_of(key)];
      outbox[vocabulary.owner(row)].push_back({row, column, g, 0.0f, weight});
    }
  auto inbox = all_to_all(comm, outbox);
  outbox = {};

  // Stable: equal cells are summed in source-rank order, the same on every run.
  auto& cells = inbox.records;
  std::stable_sort(cells.begin(), cells.end(), [](const WireCell& a, const WireCell& b) {
    if (a.row != b.row) return a.row < b.row;
    return a.column != b.column ? a.column < b.column : a.group < b.group;
  });

  PartitionedMatrix matrix;
  for (std::size_t i = 0; i < cells.size();) {
    const WireCell& first = cells[i];
    double weight = 0.0;
    for (; i < cells.size() && cells[i].row == first.row && cells[i].column == first.column &&
           cells[i].group == first.group;
         ++i)
      weight += cells[i].weight;
    if (matrix.row_ids_.empty() || matrix.row_ids_.back() != first.row) {
      if (!matrix.row_ids_.empty()) matrix.row_start_.push_back(matrix.cells_.size());
      matrix.row_ids_.push_back(first.row);
    }
    matrix.cells_.push_back({first.column, first.group, weight});
  }
  if (!matrix.row_ids_.empty()) matrix.row_start_.push_back(matrix.cells_.size());
  return matrix;
}

}  // namespace tdcone::mpi
