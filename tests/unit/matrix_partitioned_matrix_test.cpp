// The row-partitioned matrix of the score engine (docs/spec.md §9): cells
// summed exactly whatever the rounds, rows read straight from the messages,
// keys that hold the vocabulary. The row table's tests are in
// matrix_row_table_test.cpp, the merge's in matrix_merge_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "matrix_cells.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/matrix/partitioned_matrix.hpp"

namespace tdcone {
namespace {

using matrix::MatrixLayout;
using matrix::PartitionedMatrix;
using matrix::RowJob;
namespace pair_message = matrix::pair_message;
using test_support::Cells;
using test_support::cells_of;
using test_support::frequent_rows_of_three_groups;
using test_support::Messages;
using test_support::random_spreads;
using test_support::words;

void expect_exact_sums_whatever_the_rounds() {
  // 3000 words: several buckets of 64 rows; random rows over random columns.
  const auto vocabulary = words(3000);
  const auto layout = MatrixLayout::make(vocabulary, 0, 3);
  const matrix::WeightScale scale(20000);
  std::mt19937 rng(7);
  Messages all;
  Cells expected;
  random_spreads(20000, rng, frequent_rows_of_three_groups, scale, all, expected);
  PartitionedMatrix one_round(layout, scale);
  one_round.add(all.words, all.jobs);
  one_round.finish();
  EXPECT_EQ(cells_of(one_round), expected);
  EXPECT_EQ(one_round.nnz(), expected.size());
  EXPECT_GE(one_round.bytes(), expected.size() * sizeof(matrix::StoredCell));

  PartitionedMatrix many_rounds(layout, scale);  // the same jobs in 37 slices
  for (std::size_t from = 0; from < all.jobs.size(); from += 541)
    many_rounds.add(all.words, std::span(all.jobs).subspan(from, std::min<std::size_t>(541, all.jobs.size() - from)));
  many_rounds.finish();
  EXPECT_EQ(cells_of(many_rounds), expected);
}

TEST(PartitionedMatrixTest, CellsAreExactSumsWhateverTheRounds) { expect_exact_sums_whatever_the_rounds(); }

// The same sums with the row tables' cells found one slot at a time (as on
// a CPU without AVX2).
class PortableCellFinding : public ::testing::Test {
 protected:
  void SetUp() override { before_ = PartitionedMatrix::find_cells_by_avx2(false); }
  void TearDown() override { PartitionedMatrix::find_cells_by_avx2(before_); }

 private:
  bool before_ = false;
};

TEST_F(PortableCellFinding, CellsAreExactSumsWhateverTheRounds) { expect_exact_sums_whatever_the_rounds(); }

TEST(PartitionedMatrixTest, ColumnCodesAreABijectionThatKeysUndo) {
  for (std::uint32_t n : {1u, 2u, 100u, 4096u, 70000u}) {
    const auto layout = MatrixLayout::make(words(n), 0, 3);
    std::vector<bool> seen(std::size_t{1} << layout.column_bits, false);
    for (std::uint32_t column = 0; column < seen.size(); ++column) {
      const std::uint32_t code = layout.column_code(column);
      ASSERT_FALSE(seen[code]) << "column " << column << " of " << n << " words";
      seen[code] = true;
      const std::uint32_t key = (code << layout.group_bits) | 2u;
      EXPECT_EQ(layout.column(key), column);
      EXPECT_EQ(layout.group(key), 2u);
    }
    EXPECT_EQ(layout.column_code(0), 0u) << "NULL";
  }
}

// Messages of every kind (rule 1, rule 2 uniform and weighted, the NULL
// row), with their jobs listed one by one.
struct MixedMessages {
  std::vector<std::uint32_t> words;
  std::vector<RowJob> jobs;

  void add(std::uint32_t group, const std::vector<std::uint32_t>& yo, const std::vector<std::uint32_t>& same,
           const std::vector<std::uint32_t>& rows, std::uint32_t flags, std::mt19937& rng) {
    const auto at = static_cast<std::uint32_t>(words.size());
    const std::size_t jobs_before = jobs.size();
    const bool weighted = flags & pair_message::weighted, null_row = flags & pair_message::null_row;
    std::vector<std::uint64_t> weights;
    if (weighted)
      for (std::size_t k = 0; k < rows.size() * yo.size(); ++k) {
        const std::uint64_t low = 1 + rng() % 5000, high = rng() % 3;  // words over 32 bits too
        weights.push_back(low | high << 32);
      }
    const std::size_t length = pair_message::append(
        words, {.group = group, .yo = yo, .same = same, .xo = rows, .weights = weights, .null_row = null_row, .weighted = weighted});
    std::uint32_t index = 0;
    for (auto row : same) jobs.push_back({row, at, index++});
    for (auto row : rows) jobs.push_back({row, at, index++});
    if (null_row) jobs.push_back({0, at, index});
    const pair_message::Reader message(&words[at]);
    EXPECT_EQ(words.size() - at, length);
    EXPECT_EQ(message.length(), length);
    EXPECT_EQ(jobs.size() - jobs_before, message.row_count());
  }
};

TEST(PartitionedMatrixTest, RowsReadStraightFromTheMessagesAreTheListedJobs) {
  const auto layout = MatrixLayout::make(words(3000), 0, 4);
  const matrix::WeightScale scale(5000);
  std::mt19937 rng(11);
  auto some = [&](std::uint32_t most, std::uint32_t largest) {
    std::vector<std::uint32_t> ids;
    for (std::uint32_t k = rng() % (most + 1); k > 0; --k) ids.push_back(1 + rng() % largest);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  };
  MixedMessages m;
  for (int pair = 0; pair < 5000; ++pair) {
    const auto yo = some(9, 3000);
    std::uint32_t flags = (rng() % 2 ? pair_message::weighted : 0u);
    if (!yo.empty() && rng() % 3 == 0) flags |= pair_message::null_row;
    m.add(rng() % 4, yo, some(4, 3000), some(6, 500), flags, rng);
  }
  PartitionedMatrix listed(layout, scale), read(layout, scale), in_slices(layout, scale);
  listed.add(m.words, m.jobs);
  read.add(m.words);
  for (std::size_t from = 0; from < m.words.size();) {  // whole messages, about 300 rows at a time
    std::size_t to = from, rows = 0;
    for (; to < m.words.size() && rows < 300; to += pair_message::Reader(&m.words[to]).length())
      rows += pair_message::Reader(&m.words[to]).row_count();
    in_slices.add(std::span(m.words).subspan(from, to - from));
    from = to;
  }
  for (auto* matrix : {&listed, &read, &in_slices}) matrix->finish();
  const auto cells = cells_of(listed);
  EXPECT_GT(cells.size(), 10000u);
  EXPECT_EQ(cells_of(read), cells);
  EXPECT_EQ(cells_of(in_slices), cells);
  EXPECT_EQ(read.cell_updates(), listed.cell_updates());
  EXPECT_EQ(in_slices.cell_updates(), listed.cell_updates());
  EXPECT_EQ(read.nnz(), cells.size());
}

TEST(PartitionedMatrixTest, KeyThatCannotHoldTheGroupsIsAClearError) {
  try {
    MatrixLayout::make(words(1'000'000), 0, 5000);  // 20 column bits + 13 group bits > 32
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("shards"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(MatrixLayout::make(words(1'000'000), 0, 4096));
}

TEST(PartitionedMatrixTest, WeightScaleKeepsOneUnitAndExactHalves) {
  const matrix::WeightScale scale(2'800'000);  // 22 integer bits, one for rounding
  EXPECT_EQ(scale.fraction_bits(), 40);
  EXPECT_EQ(scale.real(scale.fixed(1.0)), 1.0);
  EXPECT_EQ(scale.real(scale.fixed(0.5) * 3), 1.5);
  EXPECT_EQ(scale.fixed(1e-30), 1u);  // a positive weight never vanishes
  EXPECT_NEAR(scale.real(scale.fixed(1.0 / 3)), 1.0 / 3, 1e-12);
}

}  // namespace
}  // namespace tdcone
