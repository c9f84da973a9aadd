// How export writes values (JSON strings and numbers, TSV cells) and the line
// fingerprint that lets it check an input against the run's.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tdcone/pipeline/export_format.hpp"
#include "tdcone/io/line_fingerprint.hpp"

namespace {

using namespace tdcone::pipeline;
using tdcone::io::LineFingerprint;

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

std::uint64_t fingerprint(const std::vector<std::string>& lines) {
  LineFingerprint f;
  for (const auto& line : lines) f.add(line, false);
  return f.sum();
}

TEST(LineFingerprint, PiecesCombineToTheWholeForAnyCut) {
  std::vector<std::string> lines;
  for (int i = 0; i < 50; ++i) lines.push_back("line " + std::to_string(i * 7919 % 101));
  const std::uint64_t whole = fingerprint(lines);
  for (std::size_t cut1 = 0; cut1 <= lines.size(); cut1 += 7)
    for (std::size_t cut2 = cut1; cut2 <= lines.size(); cut2 += 5) {
      LineFingerprint a, b, c;
      for (std::size_t i = 0; i < lines.size(); ++i) (i < cut1 ? a : i < cut2 ? b : c).add(lines[i], false);
      const std::uint64_t sum = LineFingerprint::shifted(a.sum(), 0) + LineFingerprint::shifted(b.sum(), cut1) +
                                LineFingerprint::shifted(c.sum(), cut2);
      EXPECT_EQ(sum, whole) << cut1 << " " << cut2;
    }
}

TEST(LineFingerprint, ChangesWithAnyLineItsOrderOrTheLineCount) {
  const std::vector<std::string> lines = {"a b", "c d", "", "e f"};
  const std::uint64_t base = fingerprint(lines);
  auto changed = lines;
  changed[1] = "c e";
  EXPECT_NE(fingerprint(changed), base);
  changed = lines;
  std::swap(changed[0], changed[3]);
  EXPECT_NE(fingerprint(changed), base);
  changed = lines;
  changed.push_back("");
  EXPECT_NE(fingerprint(changed), base);
  changed = lines;
  changed.erase(changed.begin() + 2);  // an empty line removed
  EXPECT_NE(fingerprint(changed), base);
  LineFingerprint too_long;
  for (const auto& line : lines) too_long.add(line, &line == &lines[1]);
  EXPECT_NE(too_long.sum(), base);
  EXPECT_EQ(too_long.lines(), lines.size());
}

}  // namespace
