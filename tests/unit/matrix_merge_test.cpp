// The merge of a round's new cells into a bucket's block (src/matrix/merge.cpp):
// new cells between a row's held ones in key order, new rows between held
// rows, weights that turn wide keeping their place among narrow ones, keys
// of every width, and blocks that grow or shrink.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "matrix_cells.hpp"
#include "tdcone/matrix/partitioned_matrix.hpp"

namespace tdcone {
namespace {

using matrix::MatrixLayout;
using matrix::PartitionedMatrix;
using test_support::Cells;
using test_support::cells_of;
using test_support::expect_spread;
using test_support::frequent_rows_of_three_groups;
using test_support::Messages;
using test_support::random_spreads;
using test_support::words;

// Columns from `first` to `last`, every `step`th.
std::vector<std::uint32_t> columns(std::uint32_t first, std::uint32_t last, std::uint32_t step = 1) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t c = first; c <= last; c += step) out.push_back(c);
  return out;
}

TEST(MatrixMerge, NewCellsGoBetweenARowsHeldCellsAndSumWithTheirs) {
  const auto layout = MatrixLayout::make(words(200), 0, 1);
  const matrix::WeightScale scale(100);
  PartitionedMatrix m(layout, scale);
  Cells expected;
  Messages first;  // row 5 over 2, 4, ..., 40: 21 cells held, more than the eight copied at a time
  first.spread(0, 5, columns(2, 40, 2));
  expect_spread(expected, scale, 0, 5, columns(2, 40, 2));
  m.add(first.words, first.jobs);
  ASSERT_EQ(m.nnz(), 21u);
  Messages second;  // 3 and 41 new (before and after held ones), 4 and NULL held
  second.spread(0, 5, {3, 4, 41});
  expect_spread(expected, scale, 0, 5, {3, 4, 41});
  m.add(second.words, second.jobs);
  EXPECT_EQ(m.nnz(), 23u);
  const Cells cells = cells_of(m);
  EXPECT_EQ(cells, expected);
  EXPECT_EQ(cells.at({5, 4, 0}), scale.fixed(1.0 / 21) + scale.fixed(1.0 / 4));
  EXPECT_EQ(cells.at({5, 0, 0}), scale.fixed(1.0 / 21) + scale.fixed(1.0 / 4));
  EXPECT_EQ(cells.at({5, 3, 0}), scale.fixed(1.0 / 4));
  EXPECT_EQ(cells.at({5, 41, 0}), scale.fixed(1.0 / 4));
  EXPECT_EQ(cells.at({5, 40, 0}), scale.fixed(1.0 / 21));
}

TEST(MatrixMerge, ANewRowGoesBetweenTheHeldRowsOfItsBucket) {
  const auto layout = MatrixLayout::make(words(2000), 0, 2);
  ASSERT_GT(layout.row_bits, 1u);  // three rows of one bucket below
  const matrix::WeightScale scale(100);
  const std::uint32_t b = layout.buckets, low = 5, middle = 5 + b, high = 5 + 2 * b;
  PartitionedMatrix m(layout, scale);
  Cells expected;
  Messages first;
  first.spread(0, low, columns(1, 12));
  first.spread(1, high, {7});
  for (const auto& [row, group, yo] : std::vector<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint32_t>>>{
           {low, 0, columns(1, 12)}, {high, 1, {7}}})
    expect_spread(expected, scale, group, row, yo);
  m.add(first.words, first.jobs);
  Messages second;  // a row between the two, and a cell more for each of them
  second.spread(0, middle, columns(100, 110));
  second.spread(1, low, {7});
  second.spread(0, high, {7});
  for (const auto& [row, group, yo] : std::vector<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint32_t>>>{
           {middle, 0, columns(100, 110)}, {low, 1, {7}}, {high, 0, {7}}})
    expect_spread(expected, scale, group, row, yo);
  m.add(second.words, second.jobs);
  EXPECT_EQ(cells_of(m), expected);
  EXPECT_EQ(m.nnz(), 13u + 2u + 12u + 2u + 2u);
}

TEST(MatrixMerge, AWideCellAmidLongRunsOfNarrowOnesTakesItsNewWeights) {
  // 10000 pairs: one unit is 2^48. Row 5 holds 30 narrow cells (thirty-firsts)
  // around column 15, which halves of its own turn wide in the first round.
  const auto layout = MatrixLayout::make(words(200), 0, 1);
  const matrix::WeightScale scale(10000);
  PartitionedMatrix m(layout, scale);
  Cells expected;
  for (std::uint32_t round = 0; round < 3; ++round) {
    Messages messages;
    messages.spread(0, 5, columns(1, 30));
    expect_spread(expected, scale, 0, 5, columns(1, 30));
    for (int k = 0; k < 3; ++k) {
      messages.spread(0, 5, {15});
      expect_spread(expected, scale, 0, 5, {15});
    }
    messages.spread(0, 5, {40 + round});  // a new cell after every held one
    expect_spread(expected, scale, 0, 5, {40 + round});
    m.add(messages.words, messages.jobs);
    EXPECT_EQ(cells_of(m), expected) << "after round " << round;
  }
  EXPECT_GE(expected.at({5, 15, 0}), matrix::StoredCell::kWide);
  EXPECT_GE(expected.at({5, 0, 0}), matrix::StoredCell::kWide);
  EXPECT_LT(expected.at({5, 14, 0}), matrix::StoredCell::kWide);
  EXPECT_EQ(m.nnz(), 34u);  // 30 columns, NULL, 40, 41, 42
}

TEST(MatrixMerge, WeightsOf48BitsAndMoreSumExactlyAcrossRounds) {
  // 10000 pairs: one unit is 2^48, the first weight a stored cell holds apart.
  const auto layout = MatrixLayout::make(words(200), 0, 1);
  const matrix::WeightScale scale(10000);
  ASSERT_EQ(scale.fixed(1.0), std::uint64_t{1} << 48);
  Cells expected;
  PartitionedMatrix m(layout, scale);
  // Each round: row 5 over {7} (halves: narrow, then wide once summed), row 6
  // over {7, 9, 11} (quarters), and row 70 (another bucket) over 1..k.
  for (std::uint32_t round = 1; round <= 6; ++round) {
    Messages messages;
    std::vector<std::uint32_t> many(round);
    std::iota(many.begin(), many.end(), 1u);
    for (const auto& [row, yo] : std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>>{
             {5, {7}}, {6, {7, 9, 11}}, {70, many}}) {
      messages.spread(0, row, yo);
      const std::uint64_t share = scale.fixed(1.0 / (yo.size() + 1.0));
      for (auto t : yo) expected[{row, t, 0}] += share;
      expected[{row, 0, 0}] += share;
    }
    m.add(messages.words, messages.jobs);
    EXPECT_EQ(cells_of(m), expected) << "after round " << round;
  }
  EXPECT_GE(expected.at({5, 7, 0}), matrix::StoredCell::kWide);
  EXPECT_LT(expected.at({70, 6, 0}), matrix::StoredCell::kWide);
}

TEST(MatrixMerge, WideWeightsAmongManyNarrowOnesKeepTheirPlacesAcrossRounds) {
  // A bucket stores where its wide weights' cells are, and a merge copies
  // the held cells between them in runs: frequent (row, NULL) cells turn wide
  // amid long runs of narrow ones, round after round.
  const auto vocabulary = words(3000);
  const auto layout = MatrixLayout::make(vocabulary, 0, 2);
  const matrix::WeightScale scale(10000);  // one unit is 2^48: a cell summing a few shares is wide
  std::mt19937 rng(11);
  Messages all;
  Cells expected;
  random_spreads(12000, rng, [](std::mt19937& r) {
    const std::uint32_t row = 1 + r() % 300, group = r() % 2;
    std::vector<std::uint32_t> yo;
    for (std::uint32_t k = 1 + r() % 10; k > 0; --k) yo.push_back(1 + (r() % 8 == 0 ? r() % 4 : r() % 3000));
    return std::make_tuple(row, group, yo);
  }, scale, all, expected);
  const auto wide = std::count_if(expected.begin(), expected.end(), [](const auto& c) { return c.second >= matrix::StoredCell::kWide; });
  ASSERT_GT(wide, 300);
  ASSERT_GT(expected.size(), 20 * static_cast<std::size_t>(wide));
  PartitionedMatrix m(layout, scale);
  for (std::size_t from = 0; from < all.jobs.size(); from += 997) {
    m.add(all.words, std::span(all.jobs).subspan(from, std::min<std::size_t>(997, all.jobs.size() - from)));
  }
  m.finish();
  EXPECT_EQ(cells_of(m), expected);
}

TEST(MatrixMerge, KeysOfMoreThan16BitsLeaveNarrowerWeightsThatStayExact) {
  // A stored cell is 64 bits, its key without the row on top: 18 column
  // and 2 group bits leave 44 for the weight, so with units of 2^41 (2^20
  // pairs) a cell of 8 units or more is wide, well under kWide.
  const auto vocabulary = words(200000);
  const auto layout = MatrixLayout::make(vocabulary, 0, 3);
  const matrix::WeightScale scale(std::uint64_t{1} << 20);
  PartitionedMatrix m(layout, scale);
  ASSERT_EQ(layout.column_bits + layout.group_bits, 20u);
  ASSERT_EQ(m.wide_weight(), (std::uint64_t{1} << 44) - 1);
  ASSERT_EQ(layout.buckets, 4096u);
  std::mt19937 rng(13);
  Messages all;
  Cells expected;
  random_spreads(40000, rng, [](std::mt19937& r) {
    // 80 rows of two buckets (4096 of them), frequent (row, NULL) cells.
    const std::uint32_t row = 1 + r() % 2 + 4096 * (r() % 40), group = r() % 3;
    std::vector<std::uint32_t> yo;
    for (std::uint32_t k = 1 + r() % 6; k > 0; --k) yo.push_back(1 + (r() % 4 == 0 ? r() % 5 : r() % 199999));
    return std::make_tuple(row, group, yo);
  }, scale, all, expected);
  const auto wide = std::count_if(expected.begin(), expected.end(), [&m](const auto& c) { return c.second >= m.wide_weight(); });
  ASSERT_GT(wide, 200);
  ASSERT_GT(expected.size(), 10 * static_cast<std::size_t>(wide));
  for (std::size_t from = 0; from < all.jobs.size(); from += 1999)
    m.add(all.words, std::span(all.jobs).subspan(from, std::min<std::size_t>(1999, all.jobs.size() - from)));
  m.finish();
  EXPECT_EQ(cells_of(m), expected);
}

TEST(MatrixMerge, KeysOfAll32BitsLeaveOneRowABucketAndWeightsOf32Bits) {
  // 20 column bits and 12 group bits: no row bits, a bucket a row, and a
  // stored weight of 32 bits, below every weight of 10 pairs' units (2^58).
  const auto layout = MatrixLayout::make(words(1'000'000), 0, 4096);
  ASSERT_EQ(layout.column_bits + layout.group_bits, 32u);
  ASSERT_EQ(layout.row_bits, 0u);
  const matrix::WeightScale scale(10);
  PartitionedMatrix matrix(layout, scale);
  EXPECT_EQ(matrix.wide_weight(), (std::uint64_t{1} << 32) - 1);
  Cells expected;
  for (int round = 0; round < 3; ++round) {
    Messages m;
    for (const auto& [group, row, yo] : std::vector<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint32_t>>>{
             {4095, 999'999, {1, 999'998}}, {0, 999'999, {1}}, {4095, 3, {999'999}}}) {
      m.spread(group, row, yo);
      const std::uint64_t share = scale.fixed(1.0 / (yo.size() + 1.0));
      for (auto t : yo) expected[{row, t, group}] += share;
      expected[{row, 0, group}] += share;
    }
    matrix.add(m.words, m.jobs);
    EXPECT_EQ(cells_of(matrix), expected) << "after round " << round;
  }
  matrix.finish();
  EXPECT_EQ(cells_of(matrix), expected);
}

TEST(MatrixMerge, MergesThatGrowOrShrinkTheirBlocksHoldTheSameCells) {
  // Rounds of wide weights only (10 pairs' units) grow their blocks past the
  // cells they replace; narrow ones (20000 pairs') shrink them.
  for (const std::uint64_t pairs : {std::uint64_t{10}, std::uint64_t{20000}}) {
    const auto layout = MatrixLayout::make(words(3000), 0, 3);
    const matrix::WeightScale scale(pairs);
    std::mt19937 rng(5);
    Messages all;
    Cells expected;
    random_spreads(20000, rng, frequent_rows_of_three_groups, scale, all, expected);
    PartitionedMatrix matrix(layout, scale);
    for (std::size_t from = 0; from < all.jobs.size(); from += 541)
      matrix.add(all.words, std::span(all.jobs).subspan(from, std::min<std::size_t>(541, all.jobs.size() - from)));
    matrix.finish();
    EXPECT_EQ(cells_of(matrix), expected) << pairs << " pairs";
  }
}

}  // namespace
}  // namespace tdcone
