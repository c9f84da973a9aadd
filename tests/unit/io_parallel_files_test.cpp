// The serial side of parallel two-file corpora: ParallelLineReader (what
// export reads the text with), count_lines, rest_of_file, check_parallel_files.
#include "tdcone/io/parallel_files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <random>

#include "tdcone/core/error.hpp"
#include "temp_files.hpp"

namespace tdcone::io {
namespace {

using test_support::TempDir;
using test_support::zstd_frame;

std::vector<std::pair<std::string, std::string>> read_pairs(ParallelLineReader& reader) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (Line src, tgt; reader.next(src, tgt);) {
    EXPECT_EQ(reader.pair_id(), pairs.size());
    pairs.emplace_back(src.too_long ? "<too long>" : std::string(src.text), tgt.too_long ? "<too long>" : std::string(tgt.text));
  }
  return pairs;
}

TEST(IoParallelFilesTest, PairsComeInPairIdOrderOverFilePairs) {
  TempDir dir;
  const auto src = resolve_inputs({dir.write("s1", "a\nb\n"), dir.write("s2", ""), dir.write("s3", zstd_frame("c\r\nd"))});
  const auto tgt = resolve_inputs({dir.write("t1", "A\r\nB"), dir.write("t2", ""), dir.write("t3", "C\n" + std::string(50, 'x') + "\n")});
  ParallelLineReader reader(src, tgt, 20);
  const std::vector<std::pair<std::string, std::string>> expected = {{"a", "A"}, {"b", "B"}, {"c", "C"}, {"d", "<too long>"}};
  EXPECT_EQ(read_pairs(reader), expected);
  EXPECT_EQ(reader.file(), 3u);  // past the last file pair
}

TEST(IoParallelFilesTest, FileAndLineOfEachPair) {
  TempDir dir;
  ParallelLineReader reader(resolve_inputs({dir.write("s1", "a\n"), dir.write("s2", "b\nc\n")}),
                            resolve_inputs({dir.write("t1", "A\n"), dir.write("t2", "B\nC\n")}), 100);
  std::vector<std::pair<std::size_t, std::uint64_t>> where;
  for (Line s, t; reader.next(s, t);) where.emplace_back(reader.file(), reader.line());
  EXPECT_EQ(where, (std::vector<std::pair<std::size_t, std::uint64_t>>{{0, 1}, {1, 1}, {1, 2}}));
}

TEST(IoParallelFilesTest, DifferentLineCountsNameBothFilesAndCounts) {
  TempDir dir;
  for (const auto& [s, t] : std::vector<std::pair<std::string, std::string>>{{"a\nb\nc\n", "A\n"}, {"a\n", "A\nB\nC\nD"}}) {
    const std::string src = dir.write("src", s), tgt = dir.write("tgt", t);
    ParallelLineReader reader(resolve_inputs({src}), resolve_inputs({tgt}), 100);
    try {
      read_pairs(reader);
      FAIL() << "no error";
    } catch (const IoError& e) {
      const std::string message = e.what();
      const std::string src_lines = s.size() == 6 ? "3" : "1", tgt_lines = s.size() == 6 ? "1" : "4";
      EXPECT_NE(message.find(src + " has " + src_lines + " line(s)"), std::string::npos) << message;
      EXPECT_NE(message.find(tgt + " has " + tgt_lines), std::string::npos) << message;
    }
  }
}

TEST(IoParallelFilesTest, CheckRefusesUnmatchedFileCountsAndFifos) {
  TempDir dir;
  const auto one = resolve_inputs({dir.write("a", "x\n")}), two = resolve_inputs({dir.path("a"), dir.write("b", "y\n")});
  EXPECT_NO_THROW(check_parallel_files(two, two));
  EXPECT_THROW(check_parallel_files(one, two), UsageError);
  EXPECT_THROW(check_parallel_files({}, {}), UsageError);
  EXPECT_THROW(ParallelLineReader(one, two, 10), UsageError);
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    check_parallel_files(one, resolve_inputs({fifo}));
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(fifo), std::string::npos) << e.what();
  }
  // An empty regular file reads as a "stream" (size 0) but can be read twice.
  EXPECT_NO_THROW(check_parallel_files(one, resolve_inputs({dir.write("empty", "")})));
}

TEST(IoParallelFilesTest, CountLinesOfEverySegmentAddUpAndRestOfFileReadsOn) {
  TempDir dir;
  std::mt19937 rng(3);
  std::string text;
  for (int i = 0; i < 2000; ++i) text += std::string(rng() % 30, 'a' + i % 26) + (i % 7 ? "\n" : "\r\n");
  std::string frames;
  for (std::size_t at = 0; at < text.size(); at += 501) frames += zstd_frame(text.substr(at, 501));
  for (const std::string& bytes : {text, frames}) {
    const auto files = resolve_inputs({dir.write("f", bytes)});
    for (int n_ranks = 1; n_ranks <= 7; ++n_ranks) {
      std::uint64_t total = 0;
      for (int rank = 0; rank < n_ranks; ++rank)
        for (const Segment& s : plan_share(files, rank, n_ranks)) {
          // From this segment's start to the end of the file: the lines of the rest.
          std::uint64_t rest = 0;
          LineReader reader(files[0], rest_of_file(files[0], s), 1 << 20);
          for (Line line; reader.next(line);) ++rest;
          EXPECT_EQ(rest, 2000 - total) << n_ranks << " ranks";
          total += count_lines(files[0], s);
        }
      EXPECT_EQ(total, 2000u) << n_ranks << " ranks";
    }
  }
}

}  // namespace
}  // namespace tdcone::io
