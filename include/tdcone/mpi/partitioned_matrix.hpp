#pragma once
// The global alignment matrix M, partitioned by row across ranks (SPEC §9):
// each rank keeps only the rows of the input words it owns. Pairs fall into
// groups (shards, score bands, samples); cells keep their group so that the
// matrix of any union of groups can be formed at the owner.
//
// Storage follows the data: rows are spread over buckets small enough to sit
// in cache while a round's cells are added to them (one open-addressing table
// per bucket, 12 bytes a slot), and each table becomes a sorted array of
// 12-byte cells (32-bit key, 64-bit weight) once all rounds are in.
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/mpi/global_vocabulary.hpp"

namespace tdcone::mpi {

/// Cell weights in unsigned fixed point, so sums are exact and order-free.
/// A pair adds at most one unit to a cell, so the corpus size sets the
/// integer bits and the other bits of 63 are the fraction.
class WeightScale {
 public:
  explicit WeightScale(std::uint64_t pairs);

  /// A positive weight never rounds to zero.
  std::uint64_t fixed(double weight) const;
  double real(std::uint64_t fixed) const { return std::ldexp(static_cast<double>(fixed), -fraction_bits_); }
  int fraction_bits() const { return fraction_bits_; }

 private:
  int fraction_bits_;
};

/// Which rows this rank owns, how they map to buckets, and how a cell's
/// (row in bucket, column, group) packs into a 32-bit key.
struct MatrixLayout {
  std::uint32_t first_row = 0;  // global id of local row 0 (rank 0 owns NULL = 0)
  std::uint32_t rows = 0;       // rows owned
  std::uint32_t buckets = 1;    // local row r is in bucket r % buckets, at position r / buckets
  unsigned row_bits = 0, column_bits = 0, group_bits = 0;

  /// Throws UsageError when the key cannot hold the vocabulary and `groups`.
  static MatrixLayout make(const GlobalVocabulary& vocabulary, int rank, std::size_t groups);
  /// The same rows and buckets with another group count (the reference matrix).
  MatrixLayout with_groups(std::size_t groups) const;

  std::uint32_t column(std::uint32_t key) const { return (key >> group_bits) & ((std::uint32_t{1} << column_bits) - 1); }
  std::uint32_t group(std::uint32_t key) const { return key & ((std::uint32_t{1} << group_bits) - 1); }
};

struct [[gnu::packed]] MatrixCell {
  std::uint32_t key;     // row in bucket, column, group (MatrixLayout)
  std::uint64_t weight;  // fixed point (WeightScale); 0 marks a free table slot
};

/// The cells one input word of one pair adds to its row (SPEC §3).
struct RowJob {
  enum Kind : std::uint32_t {
    same,      // rule 1: the word aligns to itself, weight 1
    spread,    // rule 2 (uniform): 1/(|yo|+1) to each of y\x and NULL
    weighted,  // rule 2 (static): the given weights over y\x, or 1 to NULL when y\x is empty
    from_null, // rule 3 (the NULL row): 1/|yo| to each of y\x
  };
  std::uint32_t row;    // global id
  std::uint32_t group;
  Kind kind;
  std::uint32_t n_yo;
  const std::uint32_t* yo;       // global ids of y\x
  const std::uint32_t* weights;  // kind weighted: per yo word a fixed-point weight, low word first
};

class PartitionedMatrix {
 public:
  PartitionedMatrix(MatrixLayout layout, WeightScale scale);

  /// Adds the cells of `jobs` (rows owned by this rank), bucket by bucket.
  void add(std::span<const RowJob> jobs);
  /// Ends accumulation: every bucket becomes a sorted array of its cells.
  void finish();

  const MatrixLayout& layout() const { return layout_; }
  const WeightScale& scale() const { return scale_; }
  /// Bytes held by the cells (tables or arrays).
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t nnz() const;

  /// Walks the rows after finish(), in an order shared by every matrix of
  /// the same layout rows and buckets: `position()` grows along the walk.
  class RowCursor {
   public:
    explicit RowCursor(const PartitionedMatrix& matrix) : m_(matrix) {}
    bool next();
    std::uint64_t position() const { return position_; }
    /// Global id of the row's input word.
    std::uint32_t row_id() const { return row_id_; }
    /// Cells of the row, sorted by (column, group).
    std::span<const MatrixCell> cells() const { return cells_; }

   private:
    const PartitionedMatrix& m_;
    std::size_t bucket_ = 0, at_ = 0;
    std::uint64_t position_ = 0;
    std::uint32_t row_id_ = 0;
    std::span<const MatrixCell> cells_;
  };

 private:
  struct Bucket {
    std::vector<MatrixCell> slots;  // open addressing, then (after finish) the sorted cells
    std::uint32_t used = 0;
  };
  void insert(Bucket& bucket, std::uint32_t key, std::uint64_t weight);
  void grow(Bucket& bucket);

  MatrixLayout layout_;
  WeightScale scale_;
  std::vector<Bucket> buckets_;
  std::uint64_t bytes_ = 0;
  std::vector<std::uint32_t> job_order_;  // scratch: jobs sorted by bucket
  std::vector<std::uint32_t> bucket_start_;
};

}  // namespace tdcone::mpi
