// tdcone synth's command line (cli/synth_command.hpp): profile, size, seed
// and junk parsed; bad values refused by option.
#include "tdcone/cli/synth_command.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cli_command.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Synth = test_support::ParsedCommand<SynthOptionsCli>;

TEST(SynthCommand, OptionsBecomeTypedValues) {
  Synth s("synth", add_synth_options);
  ASSERT_EQ(s.parse({"--profile", "paraphrase", "--pairs", "500", "--first-pair", "100", "--seed", "3", "--vocabulary",
                     "2000", "--junk-fraction", "0.1", "--labels", "--output", "s.tsv", "--force"}),
            "");
  EXPECT_EQ(s.values.profile, "paraphrase");
  EXPECT_EQ(s.values.pairs, 500u);
  EXPECT_EQ(s.values.first_pair, 100u);
  EXPECT_EQ(s.values.seed, 3u);
  EXPECT_EQ(s.values.vocabulary, 2000u);
  EXPECT_DOUBLE_EQ(s.values.junk_fraction, 0.1);
  EXPECT_TRUE(s.values.labels);
  EXPECT_EQ(s.values.output, "s.tsv");
  EXPECT_TRUE(s.values.force);
}

TEST(SynthCommand, BadValuesAreRefusedNamingTheOption) {
  Synth profile("synth", add_synth_options);
  const std::string message = profile.parse({"--profile", "news", "--output", "s.tsv"});
  EXPECT_CONTAINS(message, "--profile");
  EXPECT_CONTAINS(message, "news");
  Synth pairs("synth", add_synth_options);
  EXPECT_CONTAINS(pairs.parse({"--pairs", "0", "--output", "s.tsv"}), "--pairs");
  Synth junk("synth", add_synth_options);
  EXPECT_CONTAINS(junk.parse({"--junk-fraction", "2", "--output", "s.tsv"}), "--junk-fraction");
}

}  // namespace
}  // namespace tdcone::cli
