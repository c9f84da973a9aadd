// How export writes values: JSON strings and numbers, TSV cells.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "tdcone/exporting/format.hpp"

namespace {

using namespace tdcone::exporting;

std::string json(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

std::string tsv(std::string_view text) {
  std::string out;
  append_tsv_cell(out, text);
  return out;
}

std::string number(double value, bool as_json) {
  std::string out;
  append_number(out, value, as_json);
  return out;
}

TEST(ExportFormat, JsonStringsEscapeQuotesBackslashesAndControls) {
  EXPECT_EQ(json("plain"), "\"plain\"");
  EXPECT_EQ(json("a \"q\" \\ b"), "\"a \\\"q\\\" \\\\ b\"");
  EXPECT_EQ(json("t\tn\nr\r"), "\"t\\tn\\nr\\r\"");
  EXPECT_EQ(json(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\x7f\"");
  EXPECT_EQ(json(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(json(""), "\"\"");
}

TEST(ExportFormat, ValidUtf8PassesInvalidBytesBecomeReplacementCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(json("héllo \xE2\x82\xAC \xF0\x9F\x98\x80"), "\"héllo \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  EXPECT_EQ(json("a\xff" "b"), "\"a" + fffd + "b\"");             // not a lead byte
  EXPECT_EQ(json("\x80"), "\"" + fffd + "\"");                     // stray continuation
  EXPECT_EQ(json("\xC3"), "\"" + fffd + "\"");                     // truncated at the end
  EXPECT_EQ(json("\xC0\xAF"), "\"" + fffd + fffd + "\"");          // overlong
  EXPECT_EQ(json("\xED\xA0\x80"), "\"" + fffd + fffd + fffd + "\"");  // a surrogate
  EXPECT_EQ(json("\xF4\x90\x80\x80"), "\"" + fffd + fffd + fffd + fffd + "\"");  // over U+10FFFF
  EXPECT_EQ(tsv("x\xfe"), "x" + fffd);
}

TEST(ExportFormat, TsvCellsHaveNoTabsOrLineEnds) {
  EXPECT_EQ(tsv("a\tb\nc\rd"), "a b c d");
  EXPECT_EQ(tsv("as \"is\" \\"), "as \"is\" \\");
}

TEST(ExportFormat, NumbersRoundTripAndNonFiniteValuesAreNullOrNan) {
  EXPECT_EQ(number(0.1, true), "0.1");
  EXPECT_EQ(number(1e-5, true), "1e-05");
  EXPECT_EQ(number(1.0000000000000002, false), "1.0000000000000002");
  const double third = 1.0 / 3;
  EXPECT_EQ(std::stod(number(third, true)), third);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(number(nan, true), "null");
  EXPECT_EQ(number(inf, true), "null");
  EXPECT_EQ(number(-inf, true), "null");
  EXPECT_EQ(number(nan, false), "nan");
  EXPECT_EQ(number(inf, false), "inf");
  EXPECT_EQ(number(-inf, false), "-inf");
  std::string out;
  append_number(out, std::uint64_t{18446744073709551615u});
  append_number(out, std::int64_t{-7});
  EXPECT_EQ(out, "18446744073709551615-7");
}

}  // namespace
