// The row table of PartitionedMatrix (src/matrix/row_table): a key's home
// slot, cells summed by linear probing, and a row's cells taken out of the
// table in key order, found by AVX2 or slot by slot: runs into the
// overflow, tables that grow, several groups sorted, keys of every width.
#include "../../src/matrix/row_table.hpp"  // a private header of src/matrix

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "matrix_cells.hpp"
#include "tdcone/matrix/partitioned_matrix.hpp"

namespace tdcone {
namespace {

using matrix::MatrixLayout;
using matrix::PartitionedMatrix;
using matrix::row_table::add_cells;
using matrix::row_table::home_slot;
using matrix::row_table::kSpreadingMultiplier;
using matrix::row_table::RowTable;
using test_support::Cells;
using test_support::cells_of;
using test_support::expect_spread;
using test_support::Messages;
using test_support::random_spreads;
using test_support::words;

TEST(RowTableSlots, AKeysHomeIsTheTopBitsOfItsProductWithTheMultiplier) {
  EXPECT_EQ(home_slot(0xE0000000u, 1, 8), 7u);
  EXPECT_EQ(home_slot(0x1FFFFFFFu, 1, 8), 0u);
  EXPECT_EQ(home_slot(0x20000000u, 1, 8), 1u);
  EXPECT_EQ(home_slot(0x20000000u, 1, 4096), 512u);
  EXPECT_EQ(home_slot(0x60000000u, 3, 8), 1u);  // 0x120000000 wraps to 0x20000000
  EXPECT_EQ(home_slot(1u, kSpreadingMultiplier, std::uint64_t{1} << 32), kSpreadingMultiplier);
}

// A table of 16 slots and its overflow, all empty, for keys of `layout`.
struct SmallTable {
  explicit SmallTable(const MatrixLayout& layout) : format(layout.table_key_format()) {}
  RowTable table() { return {keys.data(), weights.data(), 16}; }
  // Table key -> weight of the full slots.
  std::map<std::uint32_t, std::uint64_t> cells() const {
    std::map<std::uint32_t, std::uint64_t> out;
    for (std::size_t at = 0; at < weights.size(); ++at)
      if (weights[at] != 0) out[keys[at]] += weights[at];
    return out;
  }
  matrix::TableKeyFormat format;
  std::vector<std::uint32_t> keys = std::vector<std::uint32_t>(16 + 64, 0);
  std::vector<std::uint64_t> weights = std::vector<std::uint64_t>(16 + 64, 0);
};

TEST(RowTableCells, AddedWeightsSumByColumnAndNullTakesTheWeightAfterTheColumns) {
  const auto layout = MatrixLayout::make(words(200), 0, 1);
  SmallTable t(layout);
  const std::uint32_t columns[] = {3, 5, 3};
  const auto tenfold = [](std::size_t k) { return std::uint64_t{10} * (k + 1); };
  EXPECT_EQ(add_cells<1>(t.table(), 0, columns, 3, t.format, tenfold, true), 3u);  // 3, 5 and NULL are new
  const auto key = [&](std::uint32_t column) { return t.format.key(column, 0); };
  EXPECT_EQ(t.cells(), (std::map<std::uint32_t, std::uint64_t>{{key(3), 10 + 30}, {key(5), 20}, {key(0), 40}}));
  const std::uint32_t again[] = {5, 7};
  EXPECT_EQ(add_cells<1>(t.table(), 0, again, 2, t.format, tenfold, false), 1u);  // only 7 is new
  EXPECT_EQ(t.cells(), (std::map<std::uint32_t, std::uint64_t>{{key(3), 40}, {key(5), 30}, {key(7), 20}, {key(0), 40}}));
}

TEST(RowTableCells, AKeyWhoseHomeIsTakenGoesToTheNextFreeSlot) {
  const auto layout = MatrixLayout::make(words(200), 0, 1);
  SmallTable t(layout);
  // Three columns of one home slot.
  std::vector<std::uint32_t> same_home;
  std::size_t home = 0;
  for (std::uint32_t c = 1; c <= 200 && same_home.size() < 3; ++c) {
    const std::size_t slot = home_slot(t.format.key(c, 0), 1, 16);
    if (same_home.empty()) home = slot;
    if (slot == home) same_home.push_back(c);
  }
  ASSERT_EQ(same_home.size(), 3u);
  const auto one = [](std::size_t) { return std::uint64_t{1}; };
  EXPECT_EQ(add_cells<1>(t.table(), 0, same_home.data(), 3, t.format, one, false), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(t.keys[home + k], t.format.key(same_home[k], 0)) << k;
    EXPECT_EQ(t.weights[home + k], 1u) << k;
  }
  // The third again: found past the first two, not added anew.
  EXPECT_EQ(add_cells<1>(t.table(), 0, &same_home[2], 1, t.format, one, false), 0u);
  EXPECT_EQ(t.weights[home + 2], 2u);
}

TEST(RowTableCells, TheGroupIsPartOfTheKeyWithSeveralGroups) {
  const auto layout = MatrixLayout::make(words(200), 0, 3);
  SmallTable t(layout);
  const std::uint32_t columns[] = {9};
  const auto one = [](std::size_t) { return std::uint64_t{1}; };
  EXPECT_EQ(add_cells<kSpreadingMultiplier>(t.table(), t.format.group(2), columns, 1, t.format, one, true), 2u);
  EXPECT_EQ(add_cells<kSpreadingMultiplier>(t.table(), t.format.group(1), columns, 1, t.format, one, false), 1u);
  std::map<std::tuple<std::uint32_t, std::uint32_t>, std::uint64_t> by_column_and_group;
  for (const auto& [table_key, weight] : t.cells()) {
    const std::uint32_t key = t.format.key_of(table_key, 0);
    by_column_and_group[{layout.column(key), layout.group(key)}] = weight;
  }
  EXPECT_EQ(by_column_and_group,
            (std::map<std::tuple<std::uint32_t, std::uint32_t>, std::uint64_t>{{{0, 2}, 1}, {{9, 1}, 1}, {{9, 2}, 1}}));
}

// The cells of whole matrices, found in their tables by AVX2 (where the CPU
// has it) or one slot at a time (as on a CPU without): the same cells.
class RowTableCellsFound : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { before_ = PartitionedMatrix::find_cells_by_avx2(GetParam()); }
  void TearDown() override { PartitionedMatrix::find_cells_by_avx2(before_); }

 private:
  bool before_ = false;
};
// One group: the columns of the largest codes have their home slots at the
// table's end, so a row of 300 of them runs far into the overflow (past 64
// slots, the step in which the table's full slots are found).
TEST_P(RowTableCellsFound, LongRunsIntoTheOverflowAreTakenWhole) {
  const auto vocabulary = words(20000);
  const auto layout = MatrixLayout::make(vocabulary, 0, 1);
  const matrix::WeightScale scale(100);
  std::vector<std::uint32_t> by_code(20000);
  std::iota(by_code.begin(), by_code.end(), 1u);
  std::ranges::sort(by_code, std::greater{}, [&](std::uint32_t column) { return layout.column_code(column); });
  std::vector<std::uint32_t> top(by_code.begin(), by_code.begin() + 300);
  std::ranges::sort(top);
  Messages messages;
  Cells expected;
  for (const std::uint32_t row : {3u, 4u}) {  // the second row finds the table empty again
    messages.spread(0, row, top);
    const std::uint64_t share = scale.fixed(1.0 / 301);
    for (auto t : top) expected[{row, t, 0}] += share;
    expected[{row, 0, 0}] += share;
  }
  PartitionedMatrix m(layout, scale);
  m.add(messages.words, messages.jobs);
  m.finish();
  EXPECT_EQ(cells_of(m), expected);
}

TEST_P(RowTableCellsFound, OneGroupRowsComeInKeyOrderWhateverTheirSize) {
  // One group: a row's cells come out of its table in slot order, nearly
  // sorted. Rows from one job to thousands of columns (tables that grow past
  // L1, runs into the overflow), over several rounds.
  const auto vocabulary = words(20000);
  const auto layout = MatrixLayout::make(vocabulary, 0, 1);
  const matrix::WeightScale scale(30000);
  std::mt19937 rng(5);
  Messages all;
  Cells expected;
  random_spreads(30000, rng, [](std::mt19937& r) {
    const std::uint32_t row = r() % 4 == 0 ? 1 + r() % 3 : 1 + r() % 2000;  // three rows of ~7000 cells
    std::vector<std::uint32_t> yo;
    for (std::uint32_t k = r() % 20; k > 0; --k) yo.push_back(1 + r() % 20000);
    return std::make_tuple(row, std::uint32_t{0}, yo);
  }, scale, all, expected);
  PartitionedMatrix m(layout, scale);
  for (std::size_t from = 0; from < all.jobs.size(); from += 7001)
    m.add(all.words, std::span(all.jobs).subspan(from, std::min<std::size_t>(7001, all.jobs.size() - from)));
  m.finish();
  EXPECT_EQ(cells_of(m), expected);
  EXPECT_GT(std::count_if(expected.begin(), expected.end(), [](const auto& c) { return std::get<0>(c.first) == 1; }), 5000);
}

TEST_P(RowTableCellsFound, KeysOfALargeVocabularyComeOutInOrder) {
  const auto vocabulary = words(3'000'000);  // 22 column bits + 6 row bits
  const auto layout = MatrixLayout::make(vocabulary, 0, 1);
  EXPECT_EQ(layout.column_bits, 22u);
  const matrix::WeightScale scale(10);
  Messages m;
  m.spread(0, 2'999'999, {5, 2'500'000, 2'999'998});
  m.spread(0, 2'999'999, {5});
  m.spread(0, 7, {2'999'999});
  PartitionedMatrix matrix(layout, scale);
  matrix.add(m.words, m.jobs);
  matrix.finish();
  const auto cells = cells_of(matrix);
  EXPECT_EQ(cells.at({2'999'999, 5, 0}), scale.fixed(0.25) + scale.fixed(0.5));
  EXPECT_EQ(cells.at({2'999'999, 2'500'000, 0}), scale.fixed(0.25));
  EXPECT_EQ(cells.at({7, 2'999'999, 0}), scale.fixed(0.5));
  EXPECT_EQ(cells.size(), 6u);  // row 2999999: 5, 2500000, 2999998, NULL; row 7: 2999999, NULL
}

TEST_P(RowTableCellsFound, ATableThatGrowsMidRowKeepsTheCellsItHeld) {
  // Two jobs of row 9 get a table of 32 slots; the second's 100 columns
  // grow it while the first's 11 cells are in it.
  const auto layout = MatrixLayout::make(words(2000), 0, 1);
  const matrix::WeightScale scale(100);
  Messages messages;
  Cells expected;
  std::vector<std::uint32_t> few(10), many(100);
  std::iota(few.begin(), few.end(), 1u);
  std::iota(many.begin(), many.end(), 5u);
  for (const auto* yo : {&few, &many}) {
    messages.spread(0, 9, *yo);
    expect_spread(expected, scale, 0, 9, *yo);
  }
  PartitionedMatrix m(layout, scale);
  m.add(messages.words, messages.jobs);
  m.finish();
  EXPECT_EQ(cells_of(m), expected);
  EXPECT_EQ(m.nnz(), 105u);  // columns 1 to 104 and NULL
}

TEST_P(RowTableCellsFound, RowsOfSeveralGroupsAreSortedByKey) {
  // Three groups: the table's slots are in hash order. Row 3's 600 cells, of
  // columns far apart, take several passes of the radix sort; row 4's six
  // cells a plain sort.
  const auto layout = MatrixLayout::make(words(3'000'000), 0, 3);
  const matrix::WeightScale scale(1000);
  std::mt19937 rng(3);
  std::vector<std::uint32_t> spread_out;
  for (int k = 0; k < 199; ++k) spread_out.push_back(1 + rng() % 2'999'999);
  std::sort(spread_out.begin(), spread_out.end());
  spread_out.erase(std::unique(spread_out.begin(), spread_out.end()), spread_out.end());
  Messages messages;
  Cells expected;
  for (std::uint32_t group : {2u, 0u, 1u}) {
    messages.spread(group, 3, spread_out);
    expect_spread(expected, scale, group, 3, spread_out);
  }
  for (std::uint32_t group : {2u, 0u}) {
    messages.spread(group, 4, {1, 2'999'999});
    expect_spread(expected, scale, group, 4, {1, 2'999'999});
  }
  PartitionedMatrix m(layout, scale);
  m.add(messages.words, messages.jobs);
  m.finish();
  EXPECT_EQ(cells_of(m), expected);  // in key order, each once (cells_of)
  EXPECT_EQ(m.nnz(), 3 * (spread_out.size() + 1) + 6);
}

INSTANTIATE_TEST_SUITE_P(Matrix, RowTableCellsFound, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "Avx2" : "SlotBySlot");
                         });

}  // namespace
}  // namespace tdcone
