#pragma once
// The global alignment matrix M, partitioned by row across ranks
// (docs/spec.md §9): each rank keeps only the rows of the input words it
// owns. Pairs fall into groups (shards, score bands, samples); cells keep
// their group so that the matrix of any union of groups can be formed at the
// owner. docs/design/matrix.md tells the whole; in short:
//
// Storage follows the data: rows are spread over buckets, each a block of
// exactly its size: where each of its rows ends, then its stored cells
// sorted by row and key, 8 bytes each (cell.hpp), then the few weights that
// need more bits (and where their cells are). A round's messages
// (pair_message.hpp) are sorted by row; a row's new cells are summed in a
// hash table that stays in L1 and taken out in key order (with one group,
// the table's own order: the column codes); a bucket's are then merged with
// its block into a new one, row by row: no slack, about 8 bytes a non-zero.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "tdcone/mpi/global_vocabulary.hpp"
#include "tdcone/matrix/cell.hpp"
#include "tdcone/matrix/pair_message.hpp"

namespace tdcone::matrix {

/// Which rows this rank owns and how they map to buckets, and the encoding
/// of its cells' keys (CellEncoding: row in bucket, column code, group).
struct MatrixLayout : CellEncoding {
  std::uint32_t first_row = 0;  // global id of local row 0 (rank 0 owns NULL = 0)
  std::uint32_t rows = 0;       // rows owned
  std::uint32_t buckets = 1;    // local row r is in bucket r % buckets, at position r / buckets (row_bits)

  /// Throws UsageError when the key cannot hold the vocabulary and `groups`.
  static MatrixLayout make(const mpi::GlobalVocabulary& vocabulary, int rank, std::size_t groups);
  /// The same rows and buckets with another group count (the reference matrix).
  MatrixLayout with_groups(std::size_t groups) const;
};

class PartitionedMatrix {
  // A bucket's wide weights and the places of their cells, both unaligned
  // (declared before RowCursor, which reads them).
  struct WideList {
    const unsigned char* weights;
    const unsigned char* places;
    std::uint64_t weight(std::size_t k) const { return load<std::uint64_t>(weights + k * sizeof(std::uint64_t)); }
    std::size_t place(std::size_t k) const { return load<std::uint32_t>(places + k * sizeof(std::uint32_t)); }
    template <class T>
    static T load(const unsigned char* at) {
      T value;
      std::memcpy(&value, at, sizeof value);
      return value;
    }
  };

 public:
  PartitionedMatrix(MatrixLayout layout, WeightScale scale);

  /// Adds the cells of every row of the messages (pair_message.hpp) in
  /// `words` (whole messages, all rows owned by this rank), bucket by bucket.
  void add(std::span<const std::uint32_t> words);
  /// Adds the cells of `jobs` only, rows of the messages in `words` owned by
  /// this rank, bucket by bucket.
  void add(std::span<const std::uint32_t> words, std::span<const RowJob> jobs);
  /// Ends accumulation (frees the round buffers).
  void finish();

  const MatrixLayout& layout() const { return layout_; }
  const WeightScale& scale() const { return scale_; }
  /// Bytes held by the cells (as the heap counts them) and the round buffers.
  std::uint64_t bytes() const;
  std::uint64_t nnz() const { return nnz_; }
  /// Cells added so far, before equal keys were summed.
  std::uint64_t cell_updates() const { return cell_updates_; }
  /// The least weight a stored cell keeps apart (StoredCellFormat).
  std::uint64_t wide_weight() const { return stored_format_.wide_weight; }
  /// Whether a row's cells are found in its table by AVX2 compares (the
  /// default where the CPU has them) or one slot at a time. For the tests of
  /// both; returns the setting it replaces.
  static bool find_cells_by_avx2(bool on);

  /// Walks the rows, in an order shared by every matrix of
  /// the same layout rows and buckets: `position()` grows along the walk.
  class RowCursor {
   public:
    explicit RowCursor(const PartitionedMatrix& matrix) : m_(matrix) {}
    bool next();
    std::uint64_t position() const { return position_; }
    /// Global id of the row's input word.
    std::uint32_t row_id() const { return row_id_; }
    /// Number of cells of the row.
    std::size_t size() const { return count_; }
    /// Cells of the row, sorted by key (column code, then group), until the next next().
    std::span<const MatrixCell> cells() const;
    /// visit(key, weight) of each cell of the row in key order, read where
    /// they are stored: no copy (cells() makes one).
    template <class Visit>
    void for_each_cell(Visit&& visit) const {
      std::size_t wide = first_wide_;
      const StoredCellFormat format = m_.stored_format_;
      for (std::size_t k = 0; k < count_; ++k) {
        std::uint64_t weight = format.weight(row_[k]);
        if (weight == format.wide_weight) [[unlikely]]
          weight = bucket_wide_.weight(wide++);
        visit(format.key(row_[k], key_base_), weight);
      }
    }

   private:
    const PartitionedMatrix& m_;
    std::size_t bucket_ = 0, next_row_ = 0;  // the next row to look at in the bucket
    WideList bucket_wide_{};      // the bucket's wide weights
    std::size_t first_wide_ = 0;  // the row's first, if it has any
    std::size_t next_wide_ = 0;   // the first of a later row
    std::uint64_t position_ = 0;
    std::uint32_t row_id_ = 0;
    std::uint32_t key_base_ = 0;       // the row's bits of its cells' keys
    const StoredCell* row_ = nullptr;  // the row's cells in its bucket, count_ of them
    std::size_t count_ = 0;
    mutable std::vector<MatrixCell> cells_;  // the row's, from cells(), are the first count_
    mutable bool copied_ = false;            // cells_ holds the row
  };

 private:
  // Blocks from malloc: a merge cuts its block to size with realloc, in place.
  struct FreeBlock {
    void operator()(std::uint32_t* block) const { std::free(block); }
  };
  using Block = std::unique_ptr<std::uint32_t, FreeBlock>;
  static Block new_block(std::size_t bytes);
  /// `block` cut (or grown) to `bytes`, its contents kept up to that size.
  static void resize_block(Block& block, std::size_t bytes);
  // A bucket in a block of exactly its size:
  // where each of its rows ends (the cells before it, 4 bytes a row: header_words_), then its
  // `size` cells, sorted by row and key, then its `wide` weights in the
  // order of their cells (8 bytes each), then the places of those cells in
  // the bucket (4 bytes each): a merge copies the cells between two wide
  // ones without looking at them. An empty bucket has no block.
  static constexpr std::size_t kWideBytes = sizeof(std::uint64_t) + sizeof(std::uint32_t);
  struct Bucket {
    Block block;
    std::size_t size = 0, wide = 0;
  };
  const std::uint32_t* row_ends(const Bucket& bucket) const { return bucket.block.get(); }
  const StoredCell* cells_of(const Bucket& bucket) const {
    return reinterpret_cast<const StoredCell*>(bucket.block.get() + header_words_);
  }
  /// Where the wide weights are: after the cells (read it before the block changes).
  WideList wide_list(const Bucket& bucket) const {
    const auto* weights = reinterpret_cast<const unsigned char*>(cells_of(bucket) + bucket.size);
    return {weights, weights + bucket.wide * sizeof(std::uint64_t)};
  }

  // A job placed by its row: the row is where it lies in jobs_.
  struct PlacedJob {
    std::uint32_t message;  // offset of the message header in the words
    std::uint32_t index;    // as RowJob::index
  };

  /// A row's place in the walk: its bucket, then its row in the bucket. A
  /// copy of the layout's fields: in the counting loops, a store to
  /// row_start_ could be to a field of layout_ (both 32-bit), which were then
  /// loaded again for every job.
  struct Places {
    std::uint32_t first_row, bucket_mask;
    unsigned row_bits, bucket_bits;
    std::uint32_t operator()(std::uint32_t row) const {
      const std::uint32_t local = row - first_row;
      return ((local & bucket_mask) << row_bits) | (local >> bucket_bits);
    }
  };
  Places places() const {
    return {layout_.first_row, layout_.buckets - 1, layout_.row_bits,
            static_cast<unsigned>(std::countr_zero(layout_.buckets))};
  }
  /// Counting sort of jobs by place, in two passes that call
  /// `for_each_job(visit)` with visit(row, message, index): into jobs_, with
  /// place p's jobs at [row_start_[p], row_start_[p + 1]).
  template <class ForEachJob>
  void place_jobs(ForEachJob for_each_job);
  /// Adds the cells of the placed jobs.
  void add_placed(std::span<const std::uint32_t> words);
  /// The row table's: 1 (ordered) with one group, else a spreading hash.
  std::uint32_t slot_multiplier() const;
  /// add_placed with the table's slot_multiplier().
  template <std::uint32_t kSlotMultiplier>
  void add_placed_by(std::span<const std::uint32_t> words);
  /// Puts `slots` (a power of two) of the table in use, and the overflow
  /// after them; it is empty between rows.
  void use_table(std::size_t slots);
  /// Writes the row's new cells to `out`, their keys with the row's bits
  /// `row_base`, and empties their slots: in the order of their slots, or
  /// `kInKeyOrder` (the table's order with one group, where a probe may put a
  /// cell after a larger key) in key order. Returns how many.
  template <bool kInKeyOrder>
  std::size_t take_row(MatrixCell* out, std::uint32_t row_base);
  /// take_row() in key order, for any slot multiplier.
  std::size_t take_sorted_row(MatrixCell* out, std::uint32_t row_base);
  /// Doubles the table's slots until `wanted` cells fill at most half, and
  /// puts back the row's new cells.
  void grow_table(std::size_t wanted);
  /// 1/n in fixed point (a row's share of each of n words).
  std::uint64_t share_of(std::uint32_t n) const { return n < share_of_.size() ? share_of_[n] : scale_.fixed(1.0 / n); }
  /// Merges sorted, combined `fresh` cells into the sorted cells of
  /// `bucket`; those of its row r end at fresh_row_end_[r].
  void merge_into(Bucket& bucket, std::span<const MatrixCell> fresh);
  /// merge_into()'s pass: the row ends and cells into the new block, the
  /// wide weights (in the order of their cells) into wide_ and their places
  /// into wide_at_. Returns the cells written.
  std::size_t merge_cells(const Bucket& bucket, std::span<const MatrixCell> fresh, std::uint32_t* block);

  MatrixLayout layout_;
  WeightScale scale_;
  std::vector<Bucket> buckets_;
  std::array<std::uint64_t, 256> share_of_{};  // share_of(n) of the short sentences, worked out once
  std::uint64_t nnz_ = 0, cell_updates_ = 0;
  // What the buckets' blocks take from the heap, and the largest block a
  // merge made while the one it replaces was still held.
  std::uint64_t block_bytes_ = 0, merge_peak_ = 0;
  // Round scratch, kept from round to round: the jobs of one add() by row;
  // a bucket's new cells (fresh_), a row's summed first in a linear-probing
  // table of keys and weights (weight 0: empty), then sorted. The table
  // holds table keys (cell.hpp: the column code on top, then the group); a
  // key's first slot is the top bits of it times slot_multiplier(). Probes
  // run on into the overflow instead of wrapping.
  // With one group the multiplier is 1: every cell lies at or after its
  // first slot and before any larger key's unless they collided, so the full
  // slots in order (a bit each) give the row nearly in key order. With more,
  // a column's groups would all start at one slot, and a long run of them
  // would be probed at every update: the multiplier spreads them, and the
  // row is sorted.
  std::vector<PlacedJob> jobs_;
  std::vector<MatrixCell> fresh_, scratch_;
  std::vector<std::uint64_t> wide_;     // a merge's wide weights
  std::vector<std::uint32_t> wide_at_;  // and the places of their cells
  std::vector<std::uint32_t> table_keys_;
  std::vector<std::uint64_t> table_weights_;
  std::size_t table_slots_ = 0;  // in use, the overflow not counted
  TableKeyFormat table_format_;     // of the table's keys (the layout's)
  StoredCellFormat stored_format_;  // of the buckets' cells (the layout's)
  std::size_t header_words_;  // a bucket block's row ends: a row each, at least 2 (the cells stay 8-byte aligned)
  std::vector<std::uint32_t> row_start_, count_;
  std::array<std::uint32_t, 64> fresh_row_end_{};  // a bucket's new cells by row (at most 64: kMaxRowBits)
};

}  // namespace tdcone::matrix
