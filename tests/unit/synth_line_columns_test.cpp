// The columns every profile of `tdcone synth` writes the same way
// (synth/line_columns.hpp): junk at its fraction, the score and id columns.
#include "tdcone/synth/line_columns.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tdcone/synth/random.hpp"

namespace tdcone::synth {
namespace {

TEST(SynthLineColumns, JunkComesAtItsFraction) {
  Rng rng(1);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(pick_junk(0.0, rng), Junk::none);
  for (int i = 0; i < 1000; ++i) EXPECT_NE(pick_junk(1.0, rng), Junk::none);
}

TEST(SynthLineColumns, ScoreAndIdColumns) {
  Rng rng(1);
  std::string out;
  append_score_and_id(Junk::bad_score, 0.5, 5, 9, rng, out);
  EXPECT_EQ(out, "\tn/a\tsyn-5-9");
  out.clear();
  append_score_and_id(Junk::none, 0.5, 12, 3456, rng, out);
  EXPECT_TRUE(std::regex_match(out, std::regex("\t[01]\\.[0-9]{4}\tsyn-12-3456"))) << out;
  out.clear();
  append_number(18446744073709551615ull, out);
  EXPECT_EQ(out, "18446744073709551615");
}

}  // namespace
}  // namespace tdcone::synth
