// What replicates say of a table's rows (results/replicate_tables.hpp):
// intervals per metric, p_best by the ranked metric within a kind of row,
// a clear best only among full samples, and the kinds of /labels rows.
#include "tdcone/results/replicate_tables.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tdcone::results {
namespace {

// Replicates of subsets 0 (corpus) and 1..3, whose TD-CONE_REL are `rel[r][s]`.
entropy::ReplicateScores replicates_of(const std::vector<std::vector<double>>& rel, std::uint64_t sample,
                                       std::vector<std::uint64_t> sampled) {
  entropy::ReplicateScores replicates;
  replicates.sample = sample;
  replicates.replicates = static_cast<std::uint32_t>(rel.size());
  replicates.sampled = std::move(sampled);
  for (const auto& values : rel) {
    auto& subsets = replicates.of_replicate.emplace_back();
    for (double v : values) {
      entropy::SubsetScore score;
      score.tdcone_rel = v;
      score.tdcone = 1 - v;
      subsets.push_back(score);
    }
  }
  return replicates;
}

TEST(TableIntervals, RanksTdconeRelWithAReferenceAndCallsAClearBest) {
  const auto replicates = replicates_of({{0.9, 0.30, 0.50, 0.60}, {0.9, 0.32, 0.52, 0.58}, {0.9, 0.31, 0.54, 0.59}}, 10,
                                        {10, 10, 10, 10});
  const TableIntervals t = table_intervals(replicates, {"shards", 1, 3, {}}, true);
  EXPECT_EQ(std::string(replicate_metrics()[t.ranked].name), "tdcone_rel");
  EXPECT_DOUBLE_EQ(t.ranked_interval(0).mean, 0.31);
  EXPECT_EQ(t.p_best, (std::vector<double>{1.0, 0.0, 0.0}));
  EXPECT_EQ(t.clear_best, 0u);
  // TD-CONE without a reference: 1 - v, so the last row is lowest.
  const TableIntervals plain = table_intervals(replicates, {"shards", 1, 3, {}}, false);
  EXPECT_EQ(std::string(replicate_metrics()[plain.ranked].name), "tdcone");
  EXPECT_EQ(plain.p_best, (std::vector<double>{0.0, 0.0, 1.0}));
}

TEST(TableIntervals, OverlappingIntervalsOrARowSampledWholeGiveNoVerdict) {
  const auto close = replicates_of({{0.9, 0.30, 0.31}, {0.9, 0.33, 0.30}}, 10, {10, 10, 10});
  const TableIntervals t = table_intervals(close, {"sweep", 1, 2, {}}, true);
  EXPECT_EQ(t.clear_best, entropy::kNoClearBest);
  EXPECT_EQ(t.p_best, (std::vector<double>{0.5, 0.5}));
  // Row 0 is far below, but row 1 had only 6 pairs, fewer than the sample of 10.
  const auto short_row = replicates_of({{0.9, 0.10, 0.50}, {0.9, 0.11, 0.50}}, 10, {10, 10, 6});
  EXPECT_EQ(table_intervals(short_row, {"sweep", 1, 2, {}}, true).clear_best, entropy::kNoClearBest);
}

TEST(TableIntervals, LabelRowsOfOneKindCompeteOnlyAmongThemselves) {
  EXPECT_EQ(label_row_kinds({"formal|calm", "formal|*", "*|calm", "informal|*", "informal|calm", "*|aroused"}),
            (std::vector<std::uint32_t>{0, 1, 2, 1, 0, 2}));
  EXPECT_EQ(label_row_kinds({"calm", "aroused"}), (std::vector<std::uint32_t>{0, 0}));
  // Rows 0 and 2 are one kind, row 1 another: each kind has its own best.
  const auto replicates = replicates_of({{0.9, 0.2, 0.8, 0.3}, {0.9, 0.3, 0.9, 0.3}}, 10, {10, 10, 10, 10});
  const TableIntervals t = table_intervals(replicates, {"labels", 1, 3, {0, 1, 0}}, true);
  EXPECT_EQ(t.p_best, (std::vector<double>{0.75, 1.0, 0.25}));  // replicate 0: row 0; replicate 1: rows 0 and 2 tie
  EXPECT_EQ(t.clear_best, entropy::kNoClearBest);  // no verdict across kinds
}

}  // namespace
}  // namespace tdcone::results
