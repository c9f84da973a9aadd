// What was read is what was recorded: a file cut, replaced or rewritten after
// the job looked it up is an IoError naming it (how_file_changed,
// check_unchanged, and the readers' early end), a file appended to is not; a
// stream's delivered bytes are counted; "-" is standard input.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"
#include "temp_files.hpp"

namespace tdcone::io {
namespace {

using test_support::FifoFeeder;
using test_support::TempDir;
using test_support::gzip_member;
using test_support::zstd_frame;

std::string numbered_lines(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += "line " + std::to_string(i) + "\tout " + std::to_string(i) + "\n";
  return text;
}

// The message of check_unchanged(file), or "" when it passes.
std::string change_message(const InputFile& file) {
  try {
    check_unchanged(file, true);
  } catch (const IoError& error) {
    return error.what();
  }
  return "";
}

// Every line of the whole file, or the IoError's message as the last entry.
std::vector<std::string> read_all(const InputFile& file) {
  Segment whole{0, 0, file.compression == Compression::none ? file.size : file.frame_offsets.size() - 1};
  if (file.compression != Compression::none && file.compression != Compression::zstd) whole.end = 1;
  std::vector<std::string> lines;
  try {
    LineReader reader(file, whole, 1 << 20);
    for (Line line; reader.next(line);) lines.emplace_back(line.text);
  } catch (const IoError& error) {
    lines.push_back(std::string("error: ") + error.what());
  }
  return lines;
}

TEST(IoChangedInputTest, AFileLeftAloneOrAppendedToIsUnchanged) {
  TempDir dir;
  const std::string path = dir.write("c.tsv", numbered_lines(10));
  const InputFile recorded = resolve_inputs({path})[0];
  EXPECT_EQ(change_message(recorded), "");
  std::ofstream(path, std::ios::app) << "one more\tline\n";
  EXPECT_EQ(change_message(recorded), "");  // the job reads the recorded prefix
}

TEST(IoChangedInputTest, AFileCutAfterItWasRecordedIsNamedWithBothSizes) {
  TempDir dir;
  const std::string path = dir.write("c.tsv", numbered_lines(10));
  const InputFile recorded = resolve_inputs({path})[0];
  ASSERT_EQ(::truncate(path.c_str(), 20), 0);
  const std::string message = change_message(recorded);
  EXPECT_NE(message.find(path + " changed while the job read it: it was cut: it has 20 bytes now, but " +
                         std::to_string(recorded.size) + " when the job started"),
            std::string::npos)
      << message;
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);  // an empty file is looked up as a stream
  EXPECT_NE(change_message(recorded).find("it has 0 bytes now"), std::string::npos) << change_message(recorded);
}

TEST(IoChangedInputTest, AFileReplacedByAnotherOfTheSameSizeIsNamed) {
  TempDir dir;
  const std::string text = numbered_lines(10);
  const std::string path = dir.write("c.tsv", text);
  const InputFile recorded = resolve_inputs({path})[0];
  const std::string copy = dir.write("copy.tsv", text);
  ASSERT_EQ(std::rename(copy.c_str(), path.c_str()), 0);  // same size, same bytes, another inode
  EXPECT_NE(change_message(recorded).find(path + " changed while the job read it: it was replaced by another file"),
            std::string::npos)
      << change_message(recorded);
  std::filesystem::remove(path);
  EXPECT_NE(change_message(recorded).find("it cannot be looked up now"), std::string::npos);
}

TEST(IoChangedInputTest, AFileRewrittenInPlaceAtTheSameSizeIsNamed) {
  TempDir dir;
  const std::string path = dir.write("c.tsv", numbered_lines(10));
  InputFile recorded = resolve_inputs({path})[0];
  recorded.mtime_ns -= 1'000'000'000;  // as if it was modified a second after the job looked it up
  EXPECT_NE(change_message(recorded).find("it was rewritten"), std::string::npos) << change_message(recorded);
}

TEST(IoChangedInputTest, ADeviceNumberOnlyCountsOnTheSameHost) {
  InputFile recorded;
  recorded.path = "c.tsv";
  recorded.size = 100;
  recorded.device = 1;
  recorded.inode = 7;
  recorded.mtime_ns = 5;
  InputFile now = recorded;
  now.device = 2;
  EXPECT_NE(how_file_changed(now, recorded, true), "");
  EXPECT_EQ(how_file_changed(now, recorded, false), "");  // a shared file system, seen from another node
  InputFile stream = recorded;
  stream.stream = true;
  EXPECT_EQ(how_file_changed(now, stream, true), "");  // a stream is read once: nothing to compare
}

TEST(IoChangedInputTest, APlainFileCutBeforeItIsReadEndsEarlyWithAnError) {
  TempDir dir;
  const std::string path = dir.write("c.tsv", numbered_lines(1000));
  const InputFile recorded = resolve_inputs({path})[0];
  ASSERT_EQ(::truncate(path.c_str(), 100), 0);
  const auto lines = read_all(recorded);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "error: " + path + " changed while the job read it: it was cut: it ends at byte 100 now, "
                                             "but had " + std::to_string(recorded.size) +
                              " bytes when the job started. The lines read are not those of one file: leave it "
                              "unchanged while tdcone reads it (or give a copy), then run again");
  // A segment that starts past the new end gets no byte at all: an error too, not an empty share.
  Segment tail{0, recorded.size / 2, recorded.size};
  EXPECT_THROW(
      {
        LineReader reader(recorded, tail, 1 << 20);
        for (Line line; reader.next(line);) {
        }
      },
      IoError);
}

TEST(IoChangedInputTest, CompressedFilesCutAtAFrameOrMemberBoundaryEndEarlyWithAnError) {
  TempDir dir;
  const std::string first = numbered_lines(50), second = numbered_lines(60);
  const std::string gz = dir.write("c.gz", gzip_member(first) + gzip_member(second));
  const std::string zst = dir.write("c.zst", zstd_frame(first) + zstd_frame(second));
  for (const std::string& path : {gz, zst}) {
    const InputFile recorded = resolve_inputs({path})[0];
    EXPECT_EQ(read_all(recorded).size(), 110u) << path;
    // Only the first member or frame is left: whole, so a decoder alone would end without complaint.
    const std::uint64_t first_part = path == gz ? gzip_member(first).size() : zstd_frame(first).size();
    ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(first_part)), 0);
    const auto lines = read_all(recorded);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back().rfind("error: " + path + " changed while the job read it: it was cut", 0), 0u)
        << lines.back();
  }
}

TEST(IoChangedInputTest, AStreamCountsTheBytesItDelivered) {
  TempDir dir;
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = numbered_lines(3000);  // more than one read
  const InputFile stream = resolve_inputs({fifo})[0];
  ASSERT_TRUE(stream.stream);
  FifoFeeder feeder(fifo, text);
  LineReader reader(stream, Segment{0, 0, 1}, 1 << 20);
  std::size_t lines = 0;
  for (Line line; reader.next(line);) ++lines;
  EXPECT_EQ(lines, 3000u);
  EXPECT_EQ(reader.stream_bytes(), text.size());
  EXPECT_EQ(not_a_regular_file(fifo), "a pipe or FIFO");
  EXPECT_EQ(not_a_regular_file(dir.write("regular", "a\n")), "");
}

TEST(IoChangedInputTest, ADashIsStandardInput) {
  EXPECT_EQ(expand_pattern("-"), std::vector<std::string>{"/dev/stdin"});
}

}  // namespace
}  // namespace tdcone::io
