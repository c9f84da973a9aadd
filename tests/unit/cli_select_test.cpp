// tdcone select's command line (cli/select_command.hpp): the corpora, sides
// and selection settings parsed into SelectConfig; bad values refused by option.
#include "tdcone/cli/select_command.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_command.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Select = test_support::ParsedCommand<SelectOptions>;

TEST(SelectCommand, OptionsBecomeTypedValues) {
  Select s("select", add_select_options);
  ASSERT_EQ(s.parse({"--representative", "repr.txt", "--available", "avail.tsv", "--unadapted", "unad.txt",
                     "--seed-corpus", "seed.txt", "--output", "o.h5", "--side", "tgt", "--representative-side", "line",
                     "--mincount", "5", "--length-cap", "50", "--no-batch", "--stop", "--checkpoint", "c.ckpt",
                     "--checkpoint-every", "2.5"}),
            "");
  const jobs::SelectConfig& c = s.values.config;
  EXPECT_EQ(c.representative, (std::vector<std::string>{"repr.txt"}));
  EXPECT_EQ(c.available, (std::vector<std::string>{"avail.tsv"}));
  EXPECT_EQ(c.unadapted, (std::vector<std::string>{"unad.txt"}));
  EXPECT_EQ(c.seed_corpus, (std::vector<std::string>{"seed.txt"}));
  EXPECT_EQ(c.mincount, 5u);
  EXPECT_EQ(c.length_cap, 50u);
  EXPECT_FALSE(c.batch);
  EXPECT_TRUE(c.stop);
  EXPECT_EQ(c.checkpoint, "c.ckpt");
  EXPECT_DOUBLE_EQ(c.checkpoint_every, 2.5);
  EXPECT_EQ(s.values.side, "tgt");
  EXPECT_EQ(s.values.representative_side, "line");
  EXPECT_EQ(s.values.unadapted_side, "auto");
}

TEST(SelectCommand, DefaultsAreTheSpecs) {
  Select s("select", add_select_options);
  ASSERT_EQ(s.parse({"--representative", "r.txt", "--available", "a.txt", "--output", "o.h5"}), "");
  const jobs::SelectConfig& c = s.values.config;
  EXPECT_EQ(c.mincount, 3u);
  EXPECT_EQ(c.length_cap, 100u);
  EXPECT_TRUE(c.batch);
  EXPECT_TRUE(c.keep_boring);
  EXPECT_FALSE(c.stop);
  EXPECT_EQ(s.values.side, "src");
}

TEST(SelectCommand, BadValuesAreRefusedNamingTheOption) {
  Select side("select", add_select_options);
  const std::string message = side.parse({"--representative", "r", "--available", "a", "--output", "o.h5", "--side", "left"});
  EXPECT_CONTAINS(message, "--side");
  EXPECT_CONTAINS(message, "left");
  Select cap("select", add_select_options);
  EXPECT_CONTAINS(cap.parse({"--representative", "r", "--available", "a", "--output", "o.h5", "--length-cap", "x"}),
                  "--length-cap");
}

}  // namespace
}  // namespace tdcone::cli
