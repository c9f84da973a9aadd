// The cell encoding of the matrix (include/tdcone/matrix/cell.hpp): each
// stage gives back the key and weight it was given, and within a row every
// stage orders cells as their keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "tdcone/matrix/cell.hpp"

namespace tdcone {
namespace {

using matrix::CellEncoding;
using matrix::StoredCell;
using matrix::StoredCellFormat;

CellEncoding encoding(unsigned row_bits, unsigned column_bits, unsigned group_bits) {
  CellEncoding e;
  e.code_columns(column_bits);
  e.group_bits = group_bits;
  e.row_bits = row_bits;
  return e;
}

// Encodings from the smallest key to one of all 32 bits.
const std::vector<CellEncoding>& encodings() {
  static const std::vector<CellEncoding> all = {encoding(6, 1, 0), encoding(6, 12, 0), encoding(6, 12, 2),
                                                encoding(6, 22, 0), encoding(4, 18, 10), encoding(0, 20, 12)};
  return all;
}

TEST(MatrixCellTest, KeysGiveBackTheirRowColumnAndGroup) {
  std::mt19937 rng(3);
  for (const CellEncoding& e : encodings()) {
    for (int k = 0; k < 2000; ++k) {
      const std::uint32_t row = rng() & ((std::uint32_t{1} << e.row_bits) - 1);
      const std::uint32_t column = k == 0 ? 0 : rng() & e.column_mask();
      const std::uint32_t group = rng() & ((std::uint32_t{1} << e.group_bits) - 1);
      const std::uint32_t key = e.key(row, column, group);
      ASSERT_EQ(e.column(key), column) << e.column_bits << " column bits";
      ASSERT_EQ(e.group(key), group);
      ASSERT_EQ(e.code_of(key), e.column_code(column));
      ASSERT_EQ(std::uint64_t{key} >> e.row_shift(), row) << "the row on top";
      ASSERT_EQ(key - e.row_base(row), e.key(0, column, group));
    }
    EXPECT_EQ(e.column_code(0), 0u) << "NULL's code";
  }
}

TEST(MatrixCellTest, TableKeysAreTheKeyWithoutItsRowOnTop) {
  std::mt19937 rng(5);
  for (const CellEncoding& e : encodings()) {
    const matrix::TableKeyFormat table = e.table_key_format();
    for (int k = 0; k < 2000; ++k) {
      const std::uint32_t row = rng() & ((std::uint32_t{1} << e.row_bits) - 1);
      const std::uint32_t column = rng() & e.column_mask();
      const std::uint32_t group = rng() & ((std::uint32_t{1} << e.group_bits) - 1);
      const std::uint32_t key = e.key(row, column, group);
      const std::uint32_t table_key = table.key(column, table.group(group));
      ASSERT_EQ(table_key, table.of_key(key)) << "the adding loop's and the growth's agree";
      ASSERT_EQ(table.key_of(table_key, e.row_base(row)), key);
      ASSERT_EQ(table_key >> (32 - e.column_bits), e.column_code(column)) << "the code on top, for the slot";
    }
  }
}

TEST(MatrixCellTest, StoredCellsKeepTheKeyAndWeightsBelowTheWideOne) {
  std::mt19937_64 rng(7);
  for (const CellEncoding& e : encodings()) {
    const StoredCellFormat stored = e.stored_cell_format();
    EXPECT_EQ(stored.weight_bits, 64 - e.row_shift());
    EXPECT_EQ(stored.wide_weight, std::min(StoredCell::kWide, (std::uint64_t{1} << stored.weight_bits) - 1));
    for (int k = 0; k < 2000; ++k) {
      const auto row = static_cast<std::uint32_t>(rng() & ((std::uint64_t{1} << e.row_bits) - 1));
      const auto column = static_cast<std::uint32_t>(rng() & e.column_mask());
      const auto group = static_cast<std::uint32_t>(rng() & ((std::uint64_t{1} << e.group_bits) - 1));
      const std::uint32_t key = e.key(row, column, group);
      const std::uint64_t weight = k % 2 == 0 ? stored.wide_weight : 1 + rng() % stored.wide_weight;
      const StoredCell cell = StoredCellFormat::pack(stored.on_top(key), weight);
      ASSERT_EQ(stored.key(cell, e.row_base(row)), key);
      ASSERT_EQ(stored.weight(cell), weight);
      ASSERT_EQ(stored.key_on_top(cell), stored.on_top(key));
    }
  }
}

TEST(MatrixCellTest, EveryStageOrdersARowsCellsAsTheirKeys) {
  std::mt19937 rng(11);
  for (const CellEncoding& e : encodings()) {
    const matrix::TableKeyFormat table = e.table_key_format();
    const StoredCellFormat stored = e.stored_cell_format();
    const std::uint32_t row = (std::uint32_t{1} << e.row_bits) - 1;  // the last row: its bits all set
    std::vector<std::uint32_t> keys;
    for (int k = 0; k < 500; ++k)
      keys.push_back(e.key(row, rng() & e.column_mask(), rng() & ((std::uint32_t{1} << e.group_bits) - 1)));
    std::ranges::sort(keys);
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (std::size_t k = 1; k < keys.size(); ++k) {
      ASSERT_LT(table.of_key(keys[k - 1]), table.of_key(keys[k]));
      // The largest weight under the smaller key still stores less than the larger key.
      ASSERT_LT(StoredCellFormat::pack(stored.on_top(keys[k - 1]), stored.wide_weight).bits, stored.on_top(keys[k]));
      ASSERT_LE(e.code_of(keys[k - 1]), e.code_of(keys[k])) << "a column's groups side by side";
    }
  }
}

}  // namespace
}  // namespace tdcone
