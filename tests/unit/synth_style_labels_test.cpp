// The label columns of `tdcone synth --labels` (synth/style_labels.hpp):
// formality and arousal, some of them bad.
#include "tdcone/synth/style_labels.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace tdcone::synth {
namespace {

TEST(SynthStyleLabels, FormalityAndArousalColumnsSomeBad) {
  SynthOptions options;
  options.junk_fraction = 0.2;  // a tenth of the labels bad
  const LabelWriter labels(options);
  const std::regex good("\t[01]\\.[0-9]{3}\t(aroused|calm)"), missing("\t[01]\\.[0-9]{3}"),
      unparsable("\tn/a\t(aroused|calm)");
  int bad = 0;
  for (std::uint64_t index = 0; index < 2000; ++index) {
    std::string out;
    labels.append(index, index / 10, index / 50, 0.0, out);
    if (std::regex_match(out, good)) continue;
    EXPECT_TRUE(std::regex_match(out, missing) || std::regex_match(out, unparsable)) << out;
    ++bad;
  }
  EXPECT_NEAR(bad / 2000.0, 0.1, 0.03);
}

}  // namespace
}  // namespace tdcone::synth
