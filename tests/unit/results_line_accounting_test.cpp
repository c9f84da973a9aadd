// The lines of an input counted (results/line_accounting.hpp) on one rank:
// the input named in messages, the first bad lines quoted, the hint for
// invalid UTF-8, and when account_lines stops the job (no usable line, too
// many bad lines, --on-bad-line fail) or lets it go on with its counts.
#include "tdcone/results/line_accounting.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/mpi/guard.hpp"
#include "usage_error.hpp"

namespace tdcone::results {
namespace {

namespace bmpi = boost::mpi;

std::vector<io::InputFile> files(std::vector<std::string> paths) {
  std::vector<io::InputFile> out;
  for (auto& p : paths) {
    io::InputFile f;
    f.path = std::move(p);
    out.push_back(f);
  }
  return out;
}

text::BadLine bad(std::string file, std::uint64_t line, std::string reason) {
  text::BadLine b;
  b.file = std::move(file);
  b.line = line;
  b.reason = std::move(reason);
  return b;
}

// A share of `lines` lines of which `bad_lines` are bad (all on this rank).
text::TokenizedShare share_of(std::uint64_t lines, std::vector<text::BadLine> bad_lines) {
  text::TokenizedShare share;
  share.total_lines = lines;
  share.flags.assign(lines, 0);
  share.bad_count = bad_lines.size();
  share.bad_lines = std::move(bad_lines);
  return share;
}

struct Stop {
  int status = -1;
  std::string message;
};

// What account_lines stops the job with (status -1: it did not).
Stop stop_of(const text::TokenizedShare& share, const config::BadLinePolicy& policy) {
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  try {
    account_lines(self, share, files({"a.tsv"}), policy, "the corpus, --input");
  } catch (const mpi::CollectiveError& e) {
    return {e.exit_status, e.what()};
  }
  return {};
}

TEST(DescribeInput, NamesUpToThreeFilesAndCountsTheRest) {
  EXPECT_EQ(describe_input(files({"a.tsv"}), "the corpus, --input"), "a.tsv (the corpus, --input)");
  EXPECT_EQ(describe_input(files({"a", "b", "c"}), "x"), "a, b, c (x)");
  const std::string five = describe_input(files({"a1", "b2", "c3", "d4", "e5"}), "x");
  EXPECT_CONTAINS(five, "a1, b2, c3");
  EXPECT_CONTAINS(five, "2 more");
  EXPECT_EQ(five.find("d4"), std::string::npos) << five;
}

TEST(FirstReasons, QuotesTheFirstThreeBadLinesWithFileAndLine) {
  EXPECT_EQ(first_reasons({bad("a.tsv", 1, "invalid JSON")}), " (first: a.tsv:1: invalid JSON)");
  const std::string four = first_reasons({bad("a.tsv", 1, "r1"), bad("a.tsv", 2, "r2"), bad("b.tsv", 7, "r3"),
                                          bad("b.tsv", 9, "r4")});
  EXPECT_CONTAINS(four, "a.tsv:1: r1; a.tsv:2: r2; b.tsv:7: r3");
  EXPECT_CONTAINS(four, "...");
  EXPECT_EQ(four.find("r4"), std::string::npos) << four;
}

TEST(EncodingHint, SuggestsIconvOnlyForInvalidUtf8) {
  EXPECT_EQ(encoding_hint({bad("a.tsv", 3, "missing column 2")}), "");
  EXPECT_EQ(encoding_hint({}), "");
  const std::string hint = encoding_hint({bad("a.tsv", 1, "missing column 2"), bad("l1.tsv", 4, "invalid UTF-8 at byte 3")});
  EXPECT_CONTAINS(hint, "iconv -f latin1 -t utf-8 l1.tsv > l1.tsv.utf8");
}

TEST(AccountLines, CountsScoredAndFlaggedLines) {
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  config::BadLinePolicy policy;  // skip, at most half bad
  const LineCounts clean = account_lines(self, share_of(4, {}), files({"a.tsv"}), policy, "the corpus");
  EXPECT_EQ(clean.lines, 4u);
  EXPECT_EQ(clean.scored, 4u);
  EXPECT_EQ(clean.flagged, 0u);
  // 2 of 4 bad: exactly the fraction allowed, not more.
  const LineCounts half = account_lines(self, share_of(4, {bad("a.tsv", 1, "r"), bad("a.tsv", 3, "r")}), files({"a.tsv"}),
                                        policy, "the corpus");
  EXPECT_EQ(half.lines, 4u);
  EXPECT_EQ(half.scored, 2u);
  EXPECT_EQ(half.flagged, 2u);
}

TEST(AccountLines, AnEmptyInputStopsWithStatus1NamingIt) {
  const Stop stop = stop_of(share_of(0, {}), {});
  EXPECT_EQ(stop.status, 1);
  EXPECT_CONTAINS(stop.message, "a.tsv");
  EXPECT_CONTAINS(stop.message, "empty");
}

TEST(AccountLines, OnlyBadLinesStopWithTheFirstReasonsAndTheHint) {
  config::BadLinePolicy policy;
  policy.hint = "--src-col";
  const Stop stop = stop_of(share_of(2, {bad("a.tsv", 1, "missing column 2"), bad("a.tsv", 2, "missing column 2")}), policy);
  EXPECT_EQ(stop.status, 1);
  EXPECT_CONTAINS(stop.message, "a.tsv:1: missing column 2");
  EXPECT_CONTAINS(stop.message, "--src-col");
}

TEST(AccountLines, MoreBadLinesThanTheFractionStop) {
  config::BadLinePolicy policy;
  policy.max_bad_fraction = 0.25;
  // 2 of 4 bad: 50% > 25%.
  const Stop stop = stop_of(share_of(4, {bad("a.tsv", 2, "r"), bad("a.tsv", 4, "r")}), policy);
  EXPECT_EQ(stop.status, 1);
  EXPECT_CONTAINS(stop.message, "2 of 4");
  EXPECT_CONTAINS(stop.message, "50.0%");
  EXPECT_CONTAINS(stop.message, "--max-bad-fraction");
  // 1 of 4: exactly 25%, allowed.
  EXPECT_EQ(stop_of(share_of(4, {bad("a.tsv", 2, "r")}), policy).status, -1);
}

TEST(AccountLines, OnBadLineFailStopsAtTheFirstBadLine) {
  config::BadLinePolicy policy;
  policy.on_bad_line = config::OnBadLine::fail;
  const Stop stop = stop_of(share_of(10, {bad("b.tsv", 6, "invalid UTF-8")}), policy);
  EXPECT_EQ(stop.status, 1);
  EXPECT_CONTAINS(stop.message, "b.tsv:6: invalid UTF-8");
  EXPECT_CONTAINS(stop.message, "iconv");
  // No bad line: nothing to stop for.
  EXPECT_EQ(stop_of(share_of(10, {}), policy).status, -1);
}

TEST(AccountLines, OneSidedFilesSuggestTheTwoFileOptions) {
  config::BadLinePolicy policy;
  policy.two_file_options = "--src-file/--tgt-file";
  const Stop stop = stop_of(share_of(2, {bad("a.txt", 1, "missing column 2"), bad("a.txt", 2, "empty line")}), policy);
  EXPECT_CONTAINS(stop.message, "--src-file/--tgt-file");
  // Other reasons: no such suggestion.
  const Stop other = stop_of(share_of(2, {bad("a.txt", 1, "invalid JSON"), bad("a.txt", 2, "invalid JSON")}), policy);
  EXPECT_EQ(other.message.find("--src-file"), std::string::npos) << other.message;
}

}  // namespace
}  // namespace tdcone::results
