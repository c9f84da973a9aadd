#pragma once
// The global alignment matrix, partitioned by row across ranks (SPEC §9):
// each rank keeps only the rows of the input words it owns.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/align/count_matrix.hpp"
#include "tdcone/entropy/tdcone.hpp"
#include "tdcone/mpi/global_vocabulary.hpp"

namespace tdcone::mpi {

class PartitionedMatrix {
 public:
  /// Sends every cell of `local` (local ids) to the owner of its row and sums
  /// the cells of all ranks. Collective.
  static PartitionedMatrix reduce(MPI_Comm comm, const align::LocalCountMatrix& local,
                                  const GlobalVocabulary& vocabulary);

  std::size_t row_count() const { return row_ids_.size(); }
  std::uint32_t row_id(std::size_t i) const { return row_ids_[i]; }
  std::span<const std::uint32_t> columns(std::size_t i) const;
  std::span<const double> weights(std::size_t i) const;
  std::uint64_t nnz() const { return columns_.size(); }

  /// Entropy sums over the rows owned here.
  entropy::EntropySums entropy_sums() const;

 private:
  std::vector<std::uint32_t> row_ids_;     // sorted
  std::vector<std::uint64_t> row_start_{0};
  std::vector<std::uint32_t> columns_;     // sorted within a row
  std::vector<double> weights_;
};

/// Corpus-level figures of SPEC §3 / §8 `/corpus`.
struct CorpusEntropy {
  double total = 0.0;         // T = Σ M
  double cond_entropy = 0.0;  // H(Y|X), nats
  double tdcone = 0.0;
  std::uint64_t nnz = 0;
};

/// Combines the partitions of all ranks. Collective.
CorpusEntropy corpus_entropy(MPI_Comm comm, const PartitionedMatrix& matrix, std::uint64_t output_types);

}  // namespace tdcone::mpi
