// tdcone balance's command line (cli/balance_command.hpp): mode, share,
// size and ranking parsed into BalanceConfig; bad values refused by option.
#include "tdcone/cli/balance_command.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_command.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Balance = test_support::ParsedCommand<BalanceOptions>;

TEST(BalanceCommand, OptionsBecomeTypedValues) {
  Balance b("balance", add_balance_options);
  ASSERT_EQ(b.parse({"--input", "a.tsv", "--output", "o.h5", "--label-cols", "3,4", "--mode", "skewed", "--min-share",
                     "0.2", "--size", "1000", "--rank-by", "random", "--seed", "5", "--by-label"}),
            "");
  const jobs::BalanceConfig& c = b.values.config;
  EXPECT_EQ(c.corpus.inputs, (std::vector<std::string>{"a.tsv"}));
  EXPECT_EQ(c.labels.cols, "3,4");
  EXPECT_DOUBLE_EQ(c.min_share, 0.2);
  EXPECT_EQ(c.size, 1000u);
  EXPECT_EQ(c.seed, 5u);
  EXPECT_TRUE(c.by_label);
  EXPECT_EQ(b.values.mode, "skewed");
  EXPECT_EQ(b.values.rank_by, "random");
}

TEST(BalanceCommand, DefaultsBalanceJointlyByTdcone) {
  Balance b("balance", add_balance_options);
  ASSERT_EQ(b.parse({"--input", "a.tsv", "--output", "o.h5", "--label-cols", "3"}), "");
  EXPECT_EQ(b.values.mode, "joint");
  EXPECT_EQ(b.values.rank_by, "tdcone");
  EXPECT_DOUBLE_EQ(b.values.config.min_share, 0.05);
  EXPECT_EQ(b.values.config.size, 0u);
}

TEST(BalanceCommand, BadValuesAreRefusedNamingTheOption) {
  Balance mode("balance", add_balance_options);
  const std::string message = mode.parse({"--input", "a.tsv", "--output", "o.h5", "--mode", "even"});
  EXPECT_CONTAINS(message, "--mode");
  EXPECT_CONTAINS(message, "even");
  Balance share("balance", add_balance_options);
  EXPECT_CONTAINS(share.parse({"--input", "a.tsv", "--output", "o.h5", "--min-share", "1.5"}), "--min-share");
  Balance rank("balance", add_balance_options);
  EXPECT_CONTAINS(rank.parse({"--input", "a.tsv", "--output", "o.h5", "--rank-by", "bleu"}), "--rank-by");
}

}  // namespace
}  // namespace tdcone::cli
