// What an option value may be (cli/value_rules.hpp), beyond the rules
// cli_options_test.cpp checks with the options: the short forms for --help,
// switches, names, and the messages that say what a value is not.
#include "tdcone/cli/value_rules.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace tdcone::cli {
namespace {

std::string checked(const ValueRule& rule, std::string text) { return rule.accept(text) ? text : "refused"; }

TEST(ValueRules, SwitchesTakeTrueOrFalseOnly) {
  EXPECT_EQ(checked(switch_value(), "true"), "true");
  EXPECT_EQ(checked(switch_value(), "false"), "false");
  for (const char* bad : {"yes", "1", "True", ""}) EXPECT_EQ(checked(switch_value(), bad), "refused") << bad;
}

TEST(ValueRules, NamesAreTakenExactlyAndListedWhenRefused) {
  const ValueRule mode = one_of({"joint", "marginal", "skewed"});
  EXPECT_EQ(checked(mode, "marginal"), "marginal");
  EXPECT_EQ(checked(mode, "Joint"), "refused");
  EXPECT_EQ(checked(mode, "joint "), "refused");
  EXPECT_EQ(not_accepted("even", mode), "even is not one of joint, marginal, skewed");
}

TEST(ValueRules, BoundsAreSaidInTheBriefForm) {
  EXPECT_EQ(whole_number(1, 64).brief, "1..64");
  EXPECT_EQ(whole_number(1, 64).accepts, "a whole number from 1 to 64");
  EXPECT_EQ(not_accepted("65", whole_number(1, 64)), "65 is not a whole number from 1 to 64");
  EXPECT_EQ(not_accepted("1.5", real_number(0, 1)), "1.5 is not a number from 0 to 1");
}

TEST(ValueRules, WholeNumbersAcceptBothBoundsAndNothingBeyond) {
  const ValueRule rule = whole_number(3, 5);
  EXPECT_EQ(checked(rule, "3"), "3");
  EXPECT_EQ(checked(rule, "5"), "5");
  EXPECT_EQ(checked(rule, "2"), "refused");
  EXPECT_EQ(checked(rule, "6"), "refused");
  EXPECT_EQ(checked(rule, "0005"), "5");  // leading zeros: decimal
}

}  // namespace
}  // namespace tdcone::cli
