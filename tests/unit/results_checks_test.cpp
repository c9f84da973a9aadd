// The version rule of results: which tdcone_version this build reads; the
// pair_ids of a table of one row a line: each once, in range, in order where
// tdcone writes them in order.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/results/checks.hpp"
#include "tdcone/core/error.hpp"
#include "usage_error.hpp"

namespace tdcone::results {
namespace {

using test_support::io_error_of;

TEST(ResultVersion, MajorOfAVersion) {
  EXPECT_EQ(version_major("0.1.0"), 0u);
  EXPECT_EQ(version_major("9.0.0"), 9u);
  EXPECT_EQ(version_major("12.3"), 12u);
  EXPECT_EQ(version_major("1.2.3.4"), 1u);
  EXPECT_EQ(version_major("2.0.0-rc1"), 2u);
  EXPECT_EQ(version_major("2.0.0+build.5"), 2u);
  EXPECT_TRUE(version_major(TDCONE_VERSION).has_value());  // this build's own version
}

TEST(ResultVersion, GarbageIsNoVersion) {
  for (const char* text : {"", "garbage", "9", "9.", ".1.0", "v1.0.0", "1.x.0", "1.0.0 ", " 1.0.0", "1..0", "(compound)",
                           "[0, 1, 0]", "99999999999999999999.0.0"})
    EXPECT_FALSE(version_major(text).has_value()) << "'" << text << "'";
}

// A hostile file's attribute of any length is read in one pass (a regular
// expression recursed per character and crashed) and quoted in part only.
TEST(ResultVersion, ALongAttributeIsReadWithoutRecursion) {
  EXPECT_EQ(version_major("1.0-" + std::string(1'000'000, 'x')), 1u);
  std::string parts = "3";
  for (int i = 0; i < 200'000; ++i) parts += ".1";
  EXPECT_EQ(version_major(parts), 3u);
  EXPECT_FALSE(version_major("1.0.0-abc\ndef").has_value());  // a suffix on one line, as before
  EXPECT_EQ(version_major("1.0.0-"), 1u);
  const std::string problem = result_version_problem("1.0.0 " + std::string(1'000'000, 'x'));
  EXPECT_NE(problem.find("not a version ('1.0.0 xxx"), std::string::npos) << problem.substr(0, 200);
  EXPECT_LT(problem.size(), 300u);
}

TEST(ResultVersion, ReadsThisAndOlderMajorsOnly) {
  const std::uint64_t ours = *version_major(TDCONE_VERSION);
  EXPECT_EQ(result_version_problem(std::string(TDCONE_VERSION)), "");
  EXPECT_EQ(result_version_problem(cat(ours, ".999.999")), "");  // a later minor of this major
  if (ours > 0) {
    EXPECT_EQ(result_version_problem(cat(ours - 1, ".0.0")), "");
  }
  EXPECT_EQ(result_version_problem(std::string("0.0.1")), "");  // the oldest
  const std::string newer = result_version_problem(cat(ours + 1, ".0.0"));
  EXPECT_NE(newer.find(cat("newer major version than this tdcone ", TDCONE_VERSION)), std::string::npos) << newer;
  EXPECT_NE(newer.find(cat("read it with tdcone ", ours + 1, ".x")), std::string::npos) << newer;
}

TEST(ResultVersion, MissingOrGarbageIsRefused) {
  EXPECT_NE(result_version_problem(std::nullopt).find("not a tdcone result (no tdcone_version attribute on /)"),
            std::string::npos);
  const std::string garbage = result_version_problem(std::string("garbage"));
  EXPECT_NE(garbage.find("tdcone_version attribute that is not a version ('garbage'"), std::string::npos) << garbage;
  EXPECT_NE(result_version_problem(std::string("")), "");
}

TEST(ResultPairIds, EachLineOnceInRange) {
  const std::vector<std::uint64_t> in_order{0, 1, 2, 3}, shuffled{2, 0, 3, 1};
  EXPECT_EQ(io_error_of([&] { check_pair_ids("r.h5", "/pairs", in_order, 4); }), "");
  EXPECT_EQ(io_error_of([&] { check_pair_ids("r.h5", "/pairs", in_order, std::nullopt); }), "");
  EXPECT_EQ(io_error_of([&] { check_pair_ids("s.h5", "/selection", shuffled, 4); }), "");  // selection order
  EXPECT_EQ(io_error_of([&] { check_pair_ids("r.h5", "/shards", shuffled, 1); }), "");      // not a table of lines

  const std::string outside = io_error_of([] { check_pair_ids("r.h5", "/pairs", std::vector<std::uint64_t>{0, 9, 2}, 3); });
  EXPECT_NE(outside.find("r.h5: /pairs/pair_id holds 9 at row 1, out of range: the run read 3 lines"), std::string::npos)
      << outside;
  const std::string twice = io_error_of([] { check_pair_ids("s.h5", "/selection", std::vector<std::uint64_t>{2, 0, 2}, 3); });
  EXPECT_NE(twice.find("s.h5: /selection/pair_id holds 2 twice (rows 0 and 2)"), std::string::npos) << twice;
  const std::string order = io_error_of([] { check_pair_ids("b.h5", "/balance", std::vector<std::uint64_t>{1, 0}, 2); });
  EXPECT_NE(order.find("b.h5: /balance/pair_id holds 1 at row 0, where tdcone writes pair_id 0"), std::string::npos)
      << order;
  const std::string rows = io_error_of([] { check_pair_ids("r.h5", "/pairs", std::vector<std::uint64_t>{0, 1}, 5); });
  EXPECT_NE(rows.find("has 2 rows, not one for each of the n_lines 5 lines"), std::string::npos) << rows;
}

}  // namespace
}  // namespace tdcone::results
