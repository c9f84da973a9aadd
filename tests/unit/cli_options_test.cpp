// Option values: the rules every numeric and named option follows, and the
// messages for a bad value on the command line or in a TOML config (docs/spec.md §7).
#include "tdcone/cli/options.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/engine/memory_budget.hpp"
#include "temp_files.hpp"

namespace tdcone::cli {
namespace {

constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

// The text as the rule leaves it when it accepts, or "refused".
std::string checked(const ValueRule& rule, std::string text) { return rule.accept(text) ? text : "refused"; }

TEST(ValueRule, WholeNumbersAreDecimalWithinBoundsWithoutSaturation) {
  const ValueRule any = whole_number(0, kMax64);
  EXPECT_EQ(checked(any, "0"), "0");
  EXPECT_EQ(checked(any, "18446744073709551615"), "18446744073709551615");
  EXPECT_EQ(checked(any, "010"), "10");  // decimal, where CLI11 alone would read octal 8
  for (const char* bad : {"18446744073709551616", "99999999999999999999", "-1", "0x10", "1.5", "1e3", "", " 1", "+1", "true", "three"})
    EXPECT_EQ(checked(any, bad), "refused") << bad;
  const ValueRule shards = whole_number(1, 64);
  EXPECT_EQ(checked(shards, "64"), "64");
  EXPECT_EQ(checked(shards, "0"), "refused");
  EXPECT_EQ(checked(shards, "65"), "refused");
  EXPECT_EQ(not_accepted("-1", any), "-1 is not a whole number from 0 to 18446744073709551615");
}

TEST(ValueRule, ColumnsAreOneBasedWithZeroForNoneWhereOptional) {
  EXPECT_EQ(not_accepted("0", column_number(false)), "0 is not a column number (1, 2, …, 2147483647)");
  EXPECT_EQ(checked(column_number(false), "0"), "refused");
  EXPECT_EQ(checked(column_number(true), "0"), "0");
  EXPECT_EQ(checked(column_number(true), "2147483648"), "refused");  // beyond int: refused, not wrapped
  EXPECT_EQ(checked(column_number(false), "three"), "refused");
}

TEST(ValueRule, RealNumbersAreFiniteAndWithinBounds) {
  const double inf = std::numeric_limits<double>::infinity();
  const ValueRule fraction = real_number(0, 1);
  EXPECT_EQ(checked(fraction, "0.1"), "0.1");
  EXPECT_EQ(checked(fraction, "1"), "1");
  for (const char* bad : {"nan", "inf", "2", "-0.1", "1e400", "0x1p-3", "abc", ""})
    EXPECT_EQ(checked(fraction, bad), "refused") << bad;
  EXPECT_EQ(fraction.accepts, "a number from 0 to 1");
  EXPECT_EQ(real_number(0, inf).accepts, "a number ≥ 0");
  EXPECT_EQ(checked(real_number(-inf, inf), "-inf"), "refused");
  EXPECT_EQ(checked(real_number(-inf, inf), "-2.5"), "-2.5");
}

TEST(ValueRule, NamesSizesAndSwitches) {
  const ValueRule format = one_of({"tsv", "jsonl"});
  EXPECT_EQ(not_accepted("xml", format), "xml is not one of tsv, jsonl");
  EXPECT_EQ(checked(format, "jsonl"), "jsonl");
  EXPECT_EQ(checked(memory_size(SizeOf::budget), ""), "");  // automatic
  EXPECT_EQ(checked(memory_size(SizeOf::budget), "1500M"), "1500M");
  for (const char* bad : {"lots", "0", "-1G", "2Q"}) EXPECT_EQ(checked(memory_size(SizeOf::budget), bad), "refused") << bad;
  for (const char* good : {"2GB", "2GiB", "2gib", "512kB", "1T", "1048576"})
    EXPECT_EQ(checked(memory_size(SizeOf::budget), good), good) << good;
  for (const char* bad : {"2GIBB", "2iB", "10", "2xb"}) EXPECT_EQ(checked(memory_size(SizeOf::budget), bad), "refused") << bad;
  EXPECT_EQ(not_accepted("10", memory_size(SizeOf::budget)), "10 is 10 bytes; did you mean 10M or 10G?");
  EXPECT_EQ(not_accepted("lots", memory_size(SizeOf::budget)), "lots is not a size such as 1500M or 2G");
  EXPECT_EQ(parse_memory_size("2GB", "--memory", SizeOf::budget), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_memory_size("3KiB", "--memory", SizeOf::budget), 3072u);
  // A buffer may be any number of bytes: --round-size 65536 is 64 KiB.
  EXPECT_EQ(checked(memory_size(SizeOf::buffer), "65536"), "65536");
  EXPECT_EQ(parse_memory_size("65536", "--round-size", SizeOf::buffer), 65536u);
  EXPECT_EQ(checked(switch_value(), "true"), "true");
  EXPECT_EQ(checked(switch_value(), "maybe"), "refused");
}

// A command with one option of each kind, as the subcommands declare them.
struct Command {
  CLI::App app{"test", "tdcone"};
  CLI::App* sub = app.add_subcommand("score");
  OptionSet options{sub};
  std::size_t shards = 0;
  int src_col = 1;
  std::uint64_t seed = 1;
  bool lowercase = true;
  std::string format = "tsv", output;
  std::vector<double> thresholds;

  Command() {
    options.add("shards", shards, "", whole_number(0, kMax64));
    options.add("src-col", src_col, "", column_number(false));
    options.add("seed", seed, "", whole_number(0, kMax64));
    options.add_switch("lowercase", lowercase, "");
    options.add("format", format, "", one_of({"tsv", "jsonl"}));
    options.add("output", output, "");
    options.add("thresholds", thresholds, "", real_number(-1e300, 1e300));
  }
  // The message of parsing `args` ("" when they parse).
  std::string parse(std::vector<std::string> args) {
    args.insert(args.begin(), "score");
    std::reverse(args.begin(), args.end());
    try {
      app.parse(args);
      return "";
    } catch (const CLI::ParseError& e) {
      return e.what();
    }
  }
};

// The message config_arguments gives for a config of `toml`.
std::string config_error(const std::string& toml, const std::vector<std::string>& command_line = {}) {
  test_support::TempDir dir;
  const std::string path = dir.write("job.toml", toml);
  Command command;
  try {
    config_arguments(path, command.options, command_line);
    return "";
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;  // the file first
    return message.substr(path.size() + 2);
  }
}

TEST(ConfigArguments, BadValuesNameTheKeyTheValueAndWhatTheOptionTakes) {
  EXPECT_EQ(config_error("shards = true\n"), "shards = true: --shards takes a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(config_error("src-col = 'three'\n"), "src-col = 'three': --src-col takes a column number (1, 2, …, 2147483647)");
  EXPECT_EQ(config_error("shards = 2.0\n"), "shards = 2.0: --shards takes a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(config_error("shards = -1\n"), "shards = -1: --shards takes a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(config_error("lowercase = 'yes'\n"), "lowercase = 'yes': --lowercase takes true or false");
  EXPECT_EQ(config_error("format = 'xml'\n"), "format = 'xml': --format takes one of tsv, jsonl");
  EXPECT_EQ(config_error("output = false\n"), "output = false: --output takes a string");
  EXPECT_NE(config_error("shards = [1, 2]\n").find("one value, not a list"), std::string::npos);
  EXPECT_EQ(config_error("thresholds = [0.5, 'x']\n"), "thresholds = [ 0.5, 'x' ]: --thresholds takes a number from -1e+300 to 1e+300");
  EXPECT_EQ(config_error("shards = true\n", {"--shards", "2"}), "");  // the command line wins
  EXPECT_EQ(config_error("thresholds = [0.5, 0.75]\nseed = '18446744073709551615'\nlowercase = false\n"), "");
}

TEST(CommandLine, BadValuesNameTheOptionAndWhatItTakes) {
  EXPECT_EQ(Command().parse({"--src-col", "0"}), "--src-col: 0 is not a column number (1, 2, …, 2147483647)");
  EXPECT_EQ(Command().parse({"--seed", "99999999999999999999"}),
            "--seed: 99999999999999999999 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(Command().parse({"--shards", "-1"}), "--shards: -1 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(Command().parse({"--lowercase=maybe"}), "--lowercase: maybe is not true or false");
  Command command;
  EXPECT_EQ(command.parse({"--shards", "010", "--no-lowercase"}), "");
  EXPECT_EQ(command.shards, 10u);
  EXPECT_FALSE(command.lowercase);
}

TEST(EffectiveToml, ReadsBackAsTheSameOptions) {
  Command command;
  ASSERT_EQ(command.parse({"--seed", "18446744073709551615", "--shards", "3", "--no-lowercase", "--thresholds", "0.5"}), "");
  test_support::TempDir dir;
  const std::string path = dir.write("effective.toml", command.options.effective_toml());
  Command again;
  const auto args = config_arguments(path, again.options, {});
  ASSERT_EQ(again.parse(args), "");  // with the empty --output: "--output=" would swallow the next argument
  EXPECT_EQ(again.seed, 18446744073709551615u);  // beyond TOML's signed integers: written as a string
  EXPECT_EQ(again.shards, 3u);
  EXPECT_FALSE(again.lowercase);
  EXPECT_EQ(again.thresholds, std::vector<double>{0.5});
  EXPECT_EQ(again.output, "");
}

}  // namespace
}  // namespace tdcone::cli
