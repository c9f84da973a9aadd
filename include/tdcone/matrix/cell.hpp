#pragma once
// The encoding of a cell of M (docs/design/matrix.md). A cell is one string
// of bits, most significant first:
//
//   row in bucket | column code | group | weight
//
// and each stage of its life keeps a window of it, in this order:
//   table key   (the row table's slot while a round sums a row, 32 bits):
//               column code | group | zeros: the key without its row, lifted
//               to the top of the word (TableKeyFormat);
//   cell        (MatrixCell: a round's new cells, and a row as read):
//               the key, row in bucket | column code | group (32 bits), and
//               the whole weight (64 bits);
//   stored cell (StoredCell, what a bucket holds, 64 bits): column code |
//               group | weight, the key without its row on top of the
//               weight; a weight it cannot hold is wide, kept apart in its
//               bucket's list (StoredCellFormat).
// Keys order cells by row, column code and group; within a row every stage
// compares as the key does, so a row taken from the table, sorted, merged
// and stored keeps one order. All the packing and unpacking of the stages is
// here, for the adding loop, the merge and the readers alike.
#include <algorithm>
#include <cstdint>

namespace tdcone::matrix {

/// Cell weights in unsigned fixed point, so sums are exact and order-free.
/// A pair adds at most one unit to a row (so to a cell), so the corpus size
/// sets the integer bits; one bit is kept for the rounding of shares and the
/// other bits of 63 are the fraction (40 bits for 2.8M pairs: 9e-13).
class WeightScale {
 public:
  explicit WeightScale(std::uint64_t pairs);

  /// A positive weight never rounds to zero.
  std::uint64_t fixed(double weight) const;
  double real(std::uint64_t fixed) const { return static_cast<double>(fixed) * unit_; }  // exact scaling
  int fraction_bits() const { return fraction_bits_; }

 private:
  int fraction_bits_;
  double unit_;  // 2^-fraction_bits
};

/// A cell with its whole key and weight: the cells of a round, and a row as
/// RowCursor::cells() reads it.
struct [[gnu::packed]] MatrixCell {
  std::uint32_t key;     // row in bucket | column code | group (CellEncoding)
  std::uint64_t weight;  // fixed point (WeightScale)
};

/// A cell as a bucket stores it, in 64 bits: its key without the row bits
/// on top, its weight in the bits below (StoredCellFormat). A weight of the
/// format's wide_weight or more is stored as that and is the bucket's next
/// wide weight: at most kWide, less where the key leaves fewer than 48 bits
/// (column and group bits over 16).
struct StoredCell {
  static constexpr std::uint64_t kWide = (std::uint64_t{1} << 48) - 1;
  std::uint64_t bits;
};

/// The stored cells of keys of `key_bits` column and group bits. Its fields
/// are worked out once: the merge holds them in registers.
struct StoredCellFormat {
  unsigned weight_bits;       // 64 - key_bits
  std::uint32_t key_mask;     // a key's bits that are stored: its column code and group
  std::uint64_t wide_weight;  // the least weight kept apart

  static StoredCellFormat for_key_bits(unsigned key_bits) {
    const unsigned weight_bits = 64 - key_bits;
    return {weight_bits, static_cast<std::uint32_t>((std::uint64_t{1} << key_bits) - 1),
            std::min(StoredCell::kWide, (std::uint64_t{1} << weight_bits) - 1)};
  }
  std::uint64_t weight_mask() const { return (std::uint64_t{1} << weight_bits) - 1; }
  /// A key's stored bits in their place: what a stored cell of the key is at
  /// least, so stored cells and keys compare in this form.
  std::uint64_t on_top(std::uint32_t key) const { return std::uint64_t{key & key_mask} << weight_bits; }
  /// The stored cell of a key's on_top() bits and a weight below wide_weight
  /// (or wide_weight itself for a wide one).
  static StoredCell pack(std::uint64_t key_on_top, std::uint64_t weight) { return {key_on_top | weight}; }
  std::uint64_t key_on_top(StoredCell cell) const { return cell.bits & ~weight_mask(); }
  /// The cell's key, its row's bits `row_base` (CellEncoding::row_base).
  std::uint32_t key(StoredCell cell, std::uint32_t row_base) const {
    return row_base | static_cast<std::uint32_t>(cell.bits >> weight_bits);
  }
  /// The weight, or wide_weight for a wide one.
  std::uint64_t weight(StoredCell cell) const { return cell.bits & weight_mask(); }
};

/// The keys of the row table, for keys of `lift` row bits (32 less the
/// column and group bits): the key shifted left by `lift`, so that the
/// column code is on top, where the table takes a key's slot from.
struct TableKeyFormat {
  unsigned lift;
  std::uint32_t code_multiplier;  // a column times it is its code in the top bits (CellEncoding)

  /// A group's bits in a table key, under the column code.
  std::uint32_t group(std::uint32_t group) const { return group << lift; }
  /// The table key of a column and a group's bits (group()): the product
  /// needs no mask, the bits above the word fall off.
  std::uint32_t key(std::uint32_t column, std::uint32_t table_group) const { return table_group | column * code_multiplier; }
  /// The table key of a cell's key.
  std::uint32_t of_key(std::uint32_t key) const { return key << lift; }
  /// The cell's key of a table key, its row's bits `row_base`.
  std::uint32_t key_of(std::uint32_t table_key, std::uint32_t row_base) const { return row_base | (table_key >> lift); }
};

/// How a cell's key packs its row in its bucket, its column and its group
/// into 32 bits: row_bits | column_bits | group_bits, from the top.
///
/// The column is stored as its code, a bijective hash of its id (times an
/// odd multiplier, modulo 2^column_bits): the row table can then take a
/// cell's slot from the top bits of its table key, and its slots are in key
/// order (PartitionedMatrix). Keys order columns by code, a column's groups
/// side by side; NULL (column 0) has code 0.
struct CellEncoding {
  unsigned row_bits = 0, column_bits = 0, group_bits = 0;
  std::uint32_t code_multiplier = 1, code_inverse = 1;  // odd, and its inverse modulo 2^32

  /// Sets column_bits and the code's multiplier and inverse for them.
  void code_columns(unsigned bits);

  /// Where a key's row starts: its column and group bits.
  unsigned row_shift() const { return column_bits + group_bits; }
  std::uint32_t column_mask() const { return (std::uint32_t{1} << column_bits) - 1; }
  /// The code a column id is stored as (NULL, 0, stays 0).
  std::uint32_t column_code(std::uint32_t column) const { return (column * table_key_format().code_multiplier) >> (32 - column_bits); }
  /// The key's bits of a row (its place in its bucket). In 64 bits: a key
  /// of column and group bits only (no row bits) shifts by 32.
  std::uint32_t row_base(std::uint32_t row_in_bucket) const {
    return static_cast<std::uint32_t>(std::uint64_t{row_in_bucket} << row_shift());
  }
  /// The key of a cell.
  std::uint32_t key(std::uint32_t row_in_bucket, std::uint32_t column, std::uint32_t group) const {
    return row_base(row_in_bucket) | (column_code(column) << group_bits) | group;
  }
  /// The column's code in `key`: what keys are ordered by.
  std::uint32_t code_of(std::uint32_t key) const { return (key >> group_bits) & column_mask(); }
  /// The column's id (global word id of the output word) in `key`.
  std::uint32_t column(std::uint32_t key) const { return (code_of(key) * code_inverse) & column_mask(); }
  std::uint32_t group(std::uint32_t key) const { return key & ((std::uint32_t{1} << group_bits) - 1); }

  /// The stages that drop the key's row (see the top of this file).
  TableKeyFormat table_key_format() const { return {32 - row_shift(), code_multiplier << (32 - column_bits)}; }
  StoredCellFormat stored_cell_format() const { return StoredCellFormat::for_key_bits(row_shift()); }
};

}  // namespace tdcone::matrix
