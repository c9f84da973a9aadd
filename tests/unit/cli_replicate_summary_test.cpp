// What a summary says of compared rows (cli/replicate_summary.hpp): the
// interval table and its verdict, the shortfall warning and the size caveat.
#include "tdcone/cli/replicate_summary.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tdcone::cli {
namespace {

std::string printed(const std::function<void()>& print) {
  ::testing::internal::CaptureStdout();
  print();
  return ::testing::internal::GetCapturedStdout();
}

entropy::ReplicateScores two_replicates(double row0, double row1, std::uint64_t sampled1) {
  entropy::ReplicateScores replicates;
  replicates.sample = 100;
  replicates.replicates = 2;
  replicates.sampled = {100, sampled1};
  for (double shift : {0.0, 0.01}) {
    auto& subsets = replicates.of_replicate.emplace_back(2);
    subsets[0].tdcone_rel = row0 + shift;
    subsets[1].tdcone_rel = row1 - shift;
  }
  return replicates;
}

TEST(ReplicateSummary, AClearBestIsNamedWithItsInterval) {
  const auto replicates = two_replicates(0.2, 0.5, 100);
  const auto table = results::table_intervals(replicates, {"sweep", 0, 2, {}}, true);
  const std::string out = printed([&] { print_replicate_table(table, replicates, {"t=0.5", "t=0.9"}); });
  EXPECT_NE(out.find("2 replicates of 100 pairs a subset"), std::string::npos) << out;
  EXPECT_NE(out.find("t=0.5        100  0.2050000  0.2002500  0.2097500   1.000"), std::string::npos) << out;
  EXPECT_NE(out.find("clearly best: t=0.5"), std::string::npos) << out;
}

TEST(ReplicateSummary, OverlapListsTheCandidatesByPBest) {
  const auto replicates = two_replicates(0.30, 0.305, 100);  // replicate 0: row 0 lowest; 1: row 1
  const auto table = results::table_intervals(replicates, {"sweep", 0, 2, {}}, true);
  const std::string out = printed([&] { print_replicate_table(table, replicates, {"t=0.5", "t=0.9"}); });
  EXPECT_NE(out.find("no clear best (the intervals overlap): t=0.5 (p_best 0.50), t=0.9 (p_best 0.50)"), std::string::npos) << out;
}

TEST(ReplicateSummary, ARowSampledWholeBlocksTheVerdict) {
  const auto replicates = two_replicates(0.2, 0.5, 40);
  const auto table = results::table_intervals(replicates, {"shards", 0, 2, {}}, true);
  const std::string out = printed([&] {
    print_sample_shortfall({100, 40}, 100, {"shard 0", "shard 1"});
    print_replicate_table(table, replicates, {"shard 0", "shard 1"});
  });
  EXPECT_NE(out.find("warning: 1 subset has fewer than the 100 pairs of a sample, sampled whole (n_sampled): "
                     "shard 1 (40)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("no verdict: shard 1 has fewer pairs than a sample"), std::string::npos) << out;
  EXPECT_EQ(out.find("clearly best"), std::string::npos) << out;
}

TEST(ReplicateSummary, SizesMoreThanTwiceApartGetTheCaveat) {
  std::string out = printed([] { EXPECT_TRUE(print_size_caveat({300, 0, 700}, "shards")); });
  EXPECT_NE(out.find("note: these shards hold 300 to 700 pairs (2.3x)"), std::string::npos) << out;
  EXPECT_NE(out.find("--sample auto --replicates 20"), std::string::npos) << out;
  out = printed([] { EXPECT_FALSE(print_size_caveat({300, 600}, "shards")); });
  EXPECT_EQ(out, "");
  // Empty rows are no size: 200 and 285 are comparable, whatever empty shards lie beside them.
  EXPECT_TRUE(sizes_comparable({0, 200, 285, 0}));
  EXPECT_FALSE(sizes_comparable({0, 200, 401}));
  EXPECT_TRUE(sizes_comparable({0, 0}));
}

}  // namespace
}  // namespace tdcone::cli
