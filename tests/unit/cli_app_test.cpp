// The tdcone command line as a whole (cli/app.hpp): a missing or mistyped
// command, --version and each command's common options, a --config under
// the command line, a run that ends in a file, and the refusal to write
// over an input; every long option of every command.
#include "tdcone/cli/app.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "tdcone/core/progress.hpp"
#include "tdcone/mpi/guard.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

// What run_cli returned and printed.
struct Outcome {
  int status = -1;
  std::string out, err;
};

class App : public ::testing::Test {
 protected:
  // run_cli keeps --quiet, --progress-every and --stall-timeout process-wide: put back the tests' own.
  void TearDown() override {
    set_quiet(quiet_before_);
    set_progress_interval(2.0);
    mpi::set_failure_patience(patience_before_);
  }

  // Runs `tdcone ARGS...` on one rank.
  Outcome run(std::vector<std::string> args) {
    args.insert(args.begin(), "tdcone");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const boost::mpi::communicator self(MPI_COMM_SELF, boost::mpi::comm_attach);
    Outcome outcome;
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    try {
      outcome.status = run_cli(self, static_cast<int>(args.size()), argv.data());
    } catch (...) {
      outcome.out = ::testing::internal::GetCapturedStdout();
      outcome.err = ::testing::internal::GetCapturedStderr();
      throw;
    }
    outcome.out = ::testing::internal::GetCapturedStdout();
    outcome.err = ::testing::internal::GetCapturedStderr();
    return outcome;
  }
  // The CollectiveError of running `tdcone ARGS...`: its status and message ({0, ""} when it ran).
  std::pair<int, std::string> collective_error(std::vector<std::string> args) {
    try {
      run(std::move(args));
    } catch (const mpi::CollectiveError& e) {
      return {e.exit_status, e.what()};
    }
    return {0, ""};
  }
  std::size_t lines_of(const std::string& path) {
    std::ifstream in(path);
    return static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
  }

  test_support::TempDir dir_{"tdcone_cli_app_test"};
  const bool quiet_before_ = quiet();
  const double patience_before_ = mpi::failure_patience();
};

const std::string kCommands = "score, balance, sweep, select, export, info, synth";

TEST_F(App, NoCommandIsAUsageErrorListingTheCommands) {
  const Outcome o = run({});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err, "tdcone: error: give a command (commands: " + kCommands + "; `tdcone --help` describes them)\n");
  EXPECT_EQ(o.out, "");
}

TEST_F(App, AMistypedCommandIsNamedWithTheNearestOne) {
  EXPECT_EQ(run({"scroe", "--input", "a.tsv"}).err,
            "tdcone: error: unknown command 'scroe': did you mean 'score'? (commands: " + kCommands +
                "; `tdcone --help` describes them)\n");
  const Outcome far = run({"frobnicate"});
  EXPECT_EQ(far.status, 2);
  EXPECT_EQ(far.err, "tdcone: error: unknown command 'frobnicate' (commands: " + kCommands +
                         "; `tdcone --help` describes them)\n");
}

TEST_F(App, VersionIsPrintedOnStandardOutput) {
  const Outcome o = run({"--version"});
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.out, std::string(TDCONE_VERSION) + "\n");
}

TEST_F(App, CommandsThatWorkTogetherTakeAStallTimeoutAndInfoTakesNoConfig) {
  for (const char* command : {"score", "balance", "sweep", "select"}) {
    const Outcome help = run({command, "--help"});
    EXPECT_EQ(help.status, 0) << command;
    for (const char* option : {"--stall-timeout", "--config", "--progress-every", "--quiet"})
      EXPECT_NE(help.out.find(option), std::string::npos) << command << " lacks " << option;
  }
  for (const char* command : {"export", "synth"}) {
    const Outcome help = run({command, "--help"});
    EXPECT_EQ(help.out.find("--stall-timeout"), std::string::npos) << command;
    EXPECT_NE(help.out.find("--config"), std::string::npos) << command;
  }
  const Outcome info = run({"info", "--help"});
  EXPECT_NE(info.out.find("--quiet"), std::string::npos);
  for (const char* option : {"--stall-timeout", "--config", "--progress-every"})
    EXPECT_EQ(info.out.find(option), std::string::npos) << "info has " << option;
}

TEST_F(App, ABadOptionEndsWithStatus2NamingIt) {
  const Outcome o = run({"synth", "--pairs", "0", "--output", dir_.path("c.tsv")});
  EXPECT_EQ(o.status, 2);
  EXPECT_CONTAINS(o.err, "--pairs");
  EXPECT_CONTAINS(o.err, "`tdcone synth --help`");
}

TEST_F(App, ACommandRunsToItsOutput) {
  const std::string corpus = dir_.path("c.tsv");
  const Outcome o = run({"synth", "--pairs", "7", "--output", corpus});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(lines_of(corpus), 7u);
}

TEST_F(App, AConfigSuppliesOptionsAndTheCommandLineWins) {
  const std::string config = dir_.write("job.toml", "pairs = 5\nseed = 3\n");
  EXPECT_EQ(run({"synth", "--config", config, "--output", dir_.path("five.tsv")}).status, 0);
  EXPECT_EQ(lines_of(dir_.path("five.tsv")), 5u);
  EXPECT_EQ(run({"synth", "--config", config, "--pairs", "4", "--output", dir_.path("four.tsv")}).status, 0);
  EXPECT_EQ(lines_of(dir_.path("four.tsv")), 4u);
}

TEST_F(App, ABadValueInAConfigStopsWithStatus2NamingTheFileAndKey) {
  const std::string config = dir_.write("job.toml", "pairs = 'many'\n");
  const auto [status, message] = collective_error({"synth", "--config", config, "--output", dir_.path("c.tsv")});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(message.rfind(config + ": pairs = 'many': --pairs takes a whole number", 0), 0u) << message;
}

TEST_F(App, AMissingInputOfAConfigIsNamedWithTheConfig) {
  const std::string missing = dir_.path("missing.tsv");
  const std::string config = dir_.write("job.toml", "input = ['" + missing + "']\n");
  const auto [status, message] = collective_error({"score", "--config", config, "--output", dir_.path("o.h5")});
  EXPECT_NE(status, 0);
  EXPECT_CONTAINS(message, config);
  EXPECT_CONTAINS(message, "input = '" + missing + "'");
}

TEST_F(App, AnOutputOverAnInputIsRefusedBeforeAnyWork) {
  const std::string corpus = dir_.write("c.tsv", "a b\ta c\n");
  const auto [status, message] = collective_error({"score", "--input", corpus, "--output", corpus, "--force"});
  EXPECT_EQ(status, 2);
  EXPECT_CONTAINS(message, "--output");
  EXPECT_CONTAINS(message, "the corpus given with --input");
  std::ifstream kept(corpus);
  std::string line;
  std::getline(kept, line);
  EXPECT_EQ(line, "a b\ta c");
}

TEST(LongOptionNames, EveryCommandsOptionsWithTheirCommonOnes) {
  const std::vector<std::string> names = long_option_names();
  const auto count = [&](const std::string& name) { return std::count(names.begin(), names.end(), name); };
  EXPECT_EQ(count("--stall-timeout"), 4);  // score, balance, sweep, select
  EXPECT_EQ(count("--config"), 6);         // not info
  EXPECT_EQ(count("--progress-every"), 6);
  EXPECT_EQ(count("--quiet"), 7);
  EXPECT_EQ(count("--lowercase"), 4);      // the corpus commands: score, balance, sweep, select
  EXPECT_EQ(count("--no-lowercase"), 4);   // a switch: both of its names
  EXPECT_EQ(count("--profile"), 1);        // synth's own
  EXPECT_EQ(count("--version"), 0);        // tdcone's, no command's
  for (const std::string& name : names) EXPECT_EQ(name.rfind("--", 0), 0u) << name;
}

}  // namespace
}  // namespace tdcone::cli
