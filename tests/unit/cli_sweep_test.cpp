// tdcone sweep's command line (cli/sweep_command.hpp): thresholds, --sweep-by,
// --below, --sample parsed into SweepConfig; bad values refused by option.
#include "tdcone/cli/sweep_command.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "cli_command.hpp"
#include "tdcone/mpi/guard.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Sweep = test_support::ParsedCommand<SweepOptions>;

const boost::mpi::communicator& self() {
  static const boost::mpi::communicator comm(MPI_COMM_SELF, boost::mpi::comm_attach);
  return comm;
}

TEST(SweepCommand, OptionsBecomeTypedValues) {
  Sweep sweep("sweep", add_sweep_options);
  ASSERT_EQ(sweep.parse({"--input", "a.tsv", "--score-col", "3", "--output", "o.h5", "--thresholds", "0.5",
                         "--thresholds", "0.9", "--sweep-by", "bleu", "--below", "--sample", "100", "--seed", "9"}),
            "");
  const jobs::SweepConfig& c = sweep.values.config;
  EXPECT_EQ(c.thresholds, (std::vector<double>{0.5, 0.9}));
  EXPECT_EQ(c.corpus.score_col, 3);
  EXPECT_TRUE(c.below);
  EXPECT_EQ(sweep.values.sample.sample, "100");
  EXPECT_EQ(c.sample.seed, 9u);
  EXPECT_EQ(sweep.values.sweep_by, "bleu");
  config::SampleConfig resolved = c.sample;
  sweep.values.sample.resolve(self(), resolved);
  EXPECT_EQ(resolved.sample, 100u);
  EXPECT_FALSE(resolved.automatic);
  EXPECT_EQ(resolved.replicates, 1u);
}

TEST(SweepCommand, ReplicatesOfAnAutomaticSample) {
  Sweep sweep("sweep", add_sweep_options);
  ASSERT_EQ(sweep.parse({"--input", "a.tsv", "--output", "o.h5", "--thresholds", "0.5", "--sample", "auto",
                         "--replicates", "20"}),
            "");
  config::SampleConfig resolved = sweep.values.config.sample;
  sweep.values.sample.resolve(self(), resolved);
  EXPECT_TRUE(resolved.automatic);
  EXPECT_EQ(resolved.replicates, 20u);
}

TEST(SweepCommand, SizesOfACurveAreSortedOnce) {
  Sweep sweep("sweep", add_sweep_options);
  ASSERT_EQ(sweep.parse({"--input", "a.tsv", "--output", "o.h5", "--thresholds", "0.5", "--at-sizes", "1000,100,1000",
                         "--replicates", "3"}),
            "");
  config::SampleConfig resolved = sweep.values.config.sample;
  sweep.values.sample.resolve(self(), resolved);
  EXPECT_EQ(resolved.at_sizes, (std::vector<std::uint64_t>{100, 1000}));
  EXPECT_TRUE(resolved.curve_asked());
  EXPECT_FALSE(resolved.given());
}

TEST(SweepCommand, ReplicatesWithoutASampleAreRefused) {
  Sweep sweep("sweep", add_sweep_options);
  ASSERT_EQ(sweep.parse({"--input", "a.tsv", "--output", "o.h5", "--thresholds", "0.5", "--replicates", "5"}), "");
  config::SampleConfig resolved = sweep.values.config.sample;
  try {
    sweep.values.sample.resolve(self(), resolved);
    FAIL() << "--replicates 5 without --sample was accepted";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2);
    EXPECT_CONTAINS(e.what(), "--replicates 5 needs --sample N, --sample auto or --at-sizes");
  }
}

TEST(SweepCommand, DefaultsTakeEveryPairAbove) {
  Sweep sweep("sweep", add_sweep_options);
  ASSERT_EQ(sweep.parse({"--input", "a.tsv", "--output", "o.h5", "--thresholds", "0.5"}), "");
  EXPECT_FALSE(sweep.values.config.below);
  EXPECT_EQ(sweep.values.sample.sample, "0");
  EXPECT_EQ(sweep.values.config.sample.replicates, 1u);
  EXPECT_EQ(sweep.values.sweep_by, "score");
}

TEST(SweepCommand, BadValuesAreRefusedNamingTheOption) {
  Sweep by("sweep", add_sweep_options);
  const std::string message = by.parse({"--input", "a.tsv", "--output", "o.h5", "--sweep-by", "length"});
  EXPECT_CONTAINS(message, "--sweep-by");
  EXPECT_CONTAINS(message, "length");
  Sweep threshold("sweep", add_sweep_options);
  EXPECT_CONTAINS(threshold.parse({"--input", "a.tsv", "--output", "o.h5", "--thresholds", "nan"}), "--thresholds");
  Sweep sample("sweep", add_sweep_options);
  EXPECT_CONTAINS(sample.parse({"--input", "a.tsv", "--output", "o.h5", "--sample", "1.5"}), "--sample");
  Sweep word("sweep", add_sweep_options);
  EXPECT_CONTAINS(word.parse({"--input", "a.tsv", "--output", "o.h5", "--sample", "half"}), "a whole number or auto");
  Sweep none("sweep", add_sweep_options);
  EXPECT_CONTAINS(none.parse({"--input", "a.tsv", "--output", "o.h5", "--replicates", "0"}), "--replicates");
}

}  // namespace
}  // namespace tdcone::cli
