// The line fingerprint that lets export check an input against the run's.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/io/line_fingerprint.hpp"

namespace {

using tdcone::io::LineFingerprint;

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
