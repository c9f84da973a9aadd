// The command line's words (cli/command_line.hpp): the option a typing slip
// meant, --config found among the arguments, a config's missing input named
// with its key, and an argument the chosen command does not take refused
// naming the command that does take it.
#include "tdcone/cli/command_line.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tdcone/cli/options.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

TEST(Closest, FindsTheNameWithinTwoEdits) {
  const std::vector<std::string> names{"--shards", "--shard-by", "--seed", "--output"};
  EXPECT_EQ(closest("--shard", names), "--shards");   // one deletion
  EXPECT_EQ(closest("--ouptut", names), "--output");  // a transposition: two edits
  EXPECT_EQ(closest("--threshold", names), "");       // nothing near
  EXPECT_EQ(closest("--seed", names), "--seed");
}

TEST(Joined, PutsTheSeparatorBetweenItems) {
  EXPECT_EQ(joined({"score", "sweep", "export"}), "score, sweep, export");
  EXPECT_EQ(joined({"a"}, " | "), "a");
  EXPECT_EQ(joined({}), "");
}

TEST(ConfigPath, IsTheValueOfConfigInEitherSpelling) {
  EXPECT_EQ(config_path({"score", "--config", "job.toml", "--force"}), "job.toml");
  EXPECT_EQ(config_path({"score", "--config=job.toml"}), "job.toml");
  EXPECT_EQ(config_path({"score", "--input", "a.tsv"}), "");
  EXPECT_EQ(config_path({"score", "--config"}), "");  // no value: CLI11 says so
}

TEST(FromConfig, AMissingInputOfAConfigNamesTheConfigAndItsKey) {
  const std::string message =
      from_config("input file not found: data/a.tsv", "job.toml", {"--input=data/a.tsv", "--shards=2"});
  EXPECT_CONTAINS(message, "job.toml");
  EXPECT_CONTAINS(message, "input = 'data/a.tsv'");
  EXPECT_CONTAINS(message, "working directory");
  // Another message, or a file the config does not name: unchanged.
  EXPECT_EQ(from_config("input file not found: b.tsv", "job.toml", {"--input=a.tsv"}), "input file not found: b.tsv");
}

struct TwoCommands {
  CLI::App app{"test", "tdcone"};
  CLI::App* score = app.add_subcommand("score");
  CLI::App* select = app.add_subcommand("select");
  std::size_t shards = 0;
  std::vector<std::string> representative;
  TwoCommands() {
    score->add_option("--shards", shards);
    select->add_option("--representative", representative);
  }
  std::string error(std::vector<std::string> args) {
    try {
      parse(app, std::move(args));
    } catch (const CLI::ParseError& e) {
      return e.what();
    }
    return "";
  }
};

TEST(Parse, AnOptionOfAnotherCommandIsNamedWithItsCommand) {
  TwoCommands commands;
  const std::string message = commands.error({"score", "--representative", "r.txt"});
  EXPECT_CONTAINS(message, "--representative is not an option of score");
  EXPECT_CONTAINS(message, "select");
  EXPECT_EQ(message.find("r.txt"), std::string::npos) << message;  // the option's value, not a stray argument
}

TEST(Parse, ASlipAndAStrayArgumentAreNamed) {
  TwoCommands commands;
  const std::string message = commands.error({"score", "--shard", "3", "extra"});
  EXPECT_CONTAINS(message, "--shard");
  EXPECT_CONTAINS(message, "--shards");
  EXPECT_CONTAINS(message, "extra");
  TwoCommands fine;
  EXPECT_EQ(fine.error({"score", "--shards", "3"}), "");
  EXPECT_EQ(fine.shards, 3u);
  EXPECT_EQ(command_names(fine.app), (std::vector<std::string>{"score", "select"}));
}

}  // namespace
}  // namespace tdcone::cli
