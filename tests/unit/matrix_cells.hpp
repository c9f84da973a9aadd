#pragma once
// What the tests of src/matrix share: a vocabulary of one rank, messages of
// uniform rule-2 rows with the cells they sum to, random such rows, and a
// matrix's cells read back through its cursor (each row once, in key order).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "tdcone/matrix/partitioned_matrix.hpp"

namespace tdcone::test_support {

/// One rank owning NULL and words 1..n.
inline mpi::GlobalVocabulary words(std::uint32_t n) {
  mpi::GlobalVocabulary v;
  v.first_id = {1, n + 1};
  return v;
}

/// Messages of uniform rule-2 rows: row x spreads over `yo` (and NULL).
struct Messages {
  std::vector<std::uint32_t> words;
  std::vector<matrix::RowJob> jobs;

  void spread(std::uint32_t group, std::uint32_t row, const std::vector<std::uint32_t>& yo) {
    const auto at = static_cast<std::uint32_t>(words.size());
    matrix::pair_message::append(
        words, {.group = group, .yo = yo, .same = {}, .xo = {&row, 1}, .weights = {}, .null_row = false, .weighted = false});
    jobs.push_back({row, at, 0});
  }
};

/// (row, column, group) -> fixed-point weight.
using Cells = std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint64_t>;

/// Adds to `expected` the cells of row `row` spread over `yo` (sorted,
/// unique) and NULL in `group`: a share of 1/(|yo| + 1) each.
inline void expect_spread(Cells& expected, const matrix::WeightScale& scale, std::uint32_t group, std::uint32_t row,
                          const std::vector<std::uint32_t>& yo) {
  const std::uint64_t share = scale.fixed(1.0 / (yo.size() + 1.0));
  for (auto t : yo) expected[{row, t, group}] += share;
  expected[{row, 0, group}] += share;
}

/// Random uniform rule-2 rows into `all`, and the cells they sum to into
/// `expected`: `pick(rng)` gives a pair's (row, group, y\x words).
template <class Pick>
void random_spreads(int pairs, std::mt19937& rng, Pick pick, const matrix::WeightScale& scale, Messages& all,
                    Cells& expected) {
  for (int pair = 0; pair < pairs; ++pair) {
    auto [row, group, yo] = pick(rng);
    std::sort(yo.begin(), yo.end());
    yo.erase(std::unique(yo.begin(), yo.end()), yo.end());
    all.spread(group, row, yo);
    expect_spread(expected, scale, group, row, yo);
  }
}

/// (row, column, group) -> fixed-point weight, read back through the cursor.
inline Cells cells_of(const matrix::PartitionedMatrix& m) {
  Cells cells;
  matrix::PartitionedMatrix::RowCursor rows(m);
  std::uint64_t last_position = 0;
  bool first = true;
  while (rows.next()) {
    EXPECT_TRUE(first || rows.position() > last_position);
    first = false;
    last_position = rows.position();
    const auto row = rows.cells();
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) {
        EXPECT_LT(row[i - 1].key, row[i].key) << "cells sorted and combined";
      }
      const auto key = std::make_tuple(rows.row_id(), m.layout().column(row[i].key), m.layout().group(row[i].key));
      EXPECT_EQ(cells.count(key), 0u) << "a row appears once";
      cells[key] = row[i].weight;
    }
  }
  return cells;
}

/// A pair of random_spreads(): one of 400 rows (frequent rows repeat), one of
/// three groups, up to 11 of 3000 words.
inline std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint32_t>> frequent_rows_of_three_groups(
    std::mt19937& r) {
  const std::uint32_t row = 1 + r() % 400, group = r() % 3;
  std::vector<std::uint32_t> yo;
  for (std::uint32_t k = r() % 12; k > 0; --k) yo.push_back(1 + r() % 3000);
  return std::make_tuple(row, group, yo);
}

/// Adds `all` to `matrix` in rounds of `jobs` jobs.
inline void add_in_rounds(matrix::PartitionedMatrix& matrix, const Messages& all, std::size_t jobs) {
  for (std::size_t from = 0; from < all.jobs.size(); from += jobs)
    matrix.add(all.words, std::span(all.jobs).subspan(from, std::min(jobs, all.jobs.size() - from)));
}

}  // namespace tdcone::test_support
