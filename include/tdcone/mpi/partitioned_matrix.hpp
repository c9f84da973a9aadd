#pragma once
// The global alignment matrix, partitioned by row across ranks (SPEC §9):
// each rank keeps only the rows of the input words it owns. Pairs fall into
// groups (shards, score bands, samples); cells keep their group so that the
// matrix of any union of groups can be formed at the owner.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/align/count_matrix.hpp"
#include "tdcone/mpi/global_vocabulary.hpp"

namespace tdcone::mpi {

class PartitionedMatrix {
 public:
  struct Cell {
    std::uint32_t column;
    std::uint32_t group;
    double weight;
  };

  /// Sends every cell of `groups[g]` (local ids) to the owner of its row and
  /// sums the cells of all ranks per (row, column, group). Collective.
  static PartitionedMatrix reduce(MPI_Comm comm, std::span<const align::LocalCountMatrix> groups,
                                  const GlobalVocabulary& vocabulary);

  std::size_t row_count() const { return row_ids_.size(); }
  std::uint32_t row_id(std::size_t i) const { return row_ids_[i]; }
  /// Cells of row i, sorted by (column, group).
  std::span<const Cell> row(std::size_t i) const { return {cells_.data() + row_start_[i], cells_.data() + row_start_[i + 1]}; }

 private:
  std::vector<std::uint32_t> row_ids_;  // sorted
  std::vector<std::uint64_t> row_start_{0};
  std::vector<Cell> cells_;
};

}  // namespace tdcone::mpi
