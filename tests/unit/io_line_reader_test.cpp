// LineReader: every line of a file is read by exactly one segment, whatever
// the cut (plain bytes or zstd frames) and the number of ranks; "\n", "\r\n"
// and "\r" end lines; a leading byte order mark is dropped; streams (pipes,
// FIFOs, procfs files) are read whole by rank 0.
#include "tdcone/io/line_reader.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tdcone/core/error.hpp"
#include "temp_files.hpp"
#include "tdcone/io/input_files.hpp"

namespace tdcone::io {
namespace {

namespace fs = std::filesystem;

using test_support::zstd_frame;

using test_support::TempDir;

std::string skippable_frame(std::string_view payload) {
  std::string out = "\x53\x2A\x4D\x18";
  for (int i = 0; i < 4; ++i) out += static_cast<char>((payload.size() >> (8 * i)) & 0xFF);
  return out + std::string(payload);
}

// The lines a reader must return: split at "\n", "\r\n" or a lone "\r", a
// last line without a line end counted, lines over max_line_bytes flagged.
std::vector<std::string> expected_lines(std::string_view text, std::uint64_t max_line_bytes = 1 << 20) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find_first_of("\r\n", start);
    const std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
    lines.push_back(line.size() > max_line_bytes ? "<too long>" : std::string(line));
    if (end == std::string_view::npos) break;
    start = text.substr(end, 2) == "\r\n" ? end + 2 : end + 1;
  }
  return lines;
}

// All lines of all files, read rank by rank as n_ranks would read them.
std::vector<std::string> read_over_ranks(const std::vector<InputFile>& files, int n_ranks,
                                         std::uint64_t max_line_bytes = 1 << 20) {
  std::vector<std::string> lines;
  for (int rank = 0; rank < n_ranks; ++rank)
    for (const Segment& segment : plan_share(files, rank, n_ranks)) {
      LineReader reader(files[segment.file], segment, max_line_bytes);
      Line line;
      while (reader.next(line)) {
        EXPECT_TRUE(!line.too_long || line.text.empty());
        lines.push_back(line.too_long ? "<too long>" : std::string(line.text));
      }
    }
  return lines;
}

// Random lines: blank ones, short and long ones, ending in "\n", some in
// "\r\n" and some in a lone "\r".
std::string random_text(std::mt19937& rng, std::size_t approx_bytes, std::size_t max_line = 300) {
  std::string text;
  std::uniform_int_distribution<int> kind(0, 9), letter('a', 'z');
  while (text.size() < approx_bytes) {
    const int k = kind(rng);
    const std::size_t length = k == 0 ? 0 : k < 7 ? rng() % 20 : rng() % max_line;
    for (std::size_t i = 0; i < length; ++i) text += static_cast<char>(i % 7 == 6 ? ' ' : letter(rng));
    text += k == 9 ? "\r\n" : k == 8 ? "\r" : "\n";
  }
  return text;
}

// Frames cut at random points, right after and right before some line-end
// byte (so also between the '\r' and the '\n' of "\r\n"), with empty frames
// and skippable frames in between.
std::string random_frames(std::mt19937& rng, const std::string& text, std::size_t mean_frame) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t stop = std::min(text.size(), start + rng() % (2 * mean_frame));
    const std::size_t end = text.find_first_of("\r\n", stop);
    const int how = rng() % 4;
    if (how == 1 && end != std::string::npos) stop = end + 1;  // the frame ends with '\r' or '\n'
    if (how == 2 && end != std::string::npos) stop = end;      // the next frame starts with one
    out += zstd_frame(std::string_view(text).substr(start, stop - start), rng() % 2);
    if (rng() % 5 == 0) out += zstd_frame("");
    if (rng() % 5 == 0) out += skippable_frame("skip me");
    start = stop;
  }
  return out;
}

TEST(IoLineReaderTest, PlainFileSplitIntoRanksReadsEveryLineOnce) {
  TempDir dir;
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::string text = random_text(rng, 1 + rng() % 3000);
    if (trial % 2) text.pop_back();  // no final '\n'
    const auto files = resolve_inputs({dir.write("plain.txt", text)});
    for (int n_ranks = 1; n_ranks <= 5; ++n_ranks)
      ASSERT_EQ(read_over_ranks(files, n_ranks), expected_lines(text)) << "trial " << trial << ", " << n_ranks << " ranks";
    ASSERT_EQ(read_over_ranks(files, 37), expected_lines(text)) << "trial " << trial;
  }
}

TEST(IoLineReaderTest, ZstdFramesSplitIntoRanksReadEveryLineOnce) {
  TempDir dir;
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    std::string text = random_text(rng, 1 + rng() % 5000);
    if (trial % 2) text.pop_back();
    const auto files = resolve_inputs({dir.write("text.bin", random_frames(rng, text, 1 + trial * 20))});
    ASSERT_EQ(files[0].compression, Compression::zstd);
    for (int n_ranks = 1; n_ranks <= 5; ++n_ranks)
      ASSERT_EQ(read_over_ranks(files, n_ranks), expected_lines(text)) << "trial " << trial << ", " << n_ranks << " ranks";
    ASSERT_EQ(read_over_ranks(files, 64), expected_lines(text)) << "trial " << trial;
  }
}

TEST(IoLineReaderTest, LinesRunAcrossFramesAndEmptyFrames) {
  // With many ranks every frame is its own segment: a segment whose previous
  // frame is empty must look further back to see that it starts mid-line.
  TempDir dir;
  const std::string packed = skippable_frame("lead") + zstd_frame("first li") + zstd_frame("") + zstd_frame("") +
                             zstd_frame("ne\nsec") + zstd_frame("ond\n") + zstd_frame("") + zstd_frame("third") +
                             zstd_frame("\n") + zstd_frame("\nlast");
  const auto files = resolve_inputs({dir.write("frames", packed)});
  ASSERT_EQ(files[0].frame_offsets.size(), 10u);
  const std::vector<std::string> expected = {"first line", "second", "third", "", "last"};
  for (int n_ranks : {1, 2, 3, 4, 5, 9, 50}) EXPECT_EQ(read_over_ranks(files, n_ranks), expected) << n_ranks << " ranks";
}

TEST(IoLineReaderTest, LargeMixedFilesCrossReadBuffers) {
  // Several MiB with lines up to 200 KB: lines and frames straddle the 1 MiB reads.
  TempDir dir;
  std::mt19937 rng(3);
  const std::string plain = random_text(rng, 3 << 20, 200000);
  const std::string packed = random_text(rng, 3 << 20, 200000);
  const auto files = resolve_inputs({dir.write("a.txt", plain), dir.write("b.zst", random_frames(rng, packed, 700000)),
                                     dir.write("c.txt", "")});
  std::vector<std::string> expected = expected_lines(plain);
  for (const std::string& line : expected_lines(packed)) expected.push_back(line);
  for (int n_ranks = 1; n_ranks <= 5; ++n_ranks) ASSERT_EQ(read_over_ranks(files, n_ranks), expected) << n_ranks << " ranks";
}

TEST(IoLineReaderTest, LineLongerThanReadBufferIsReturnedWhole) {
  TempDir dir;
  const std::string long_line(5 << 20, 'x');
  const std::string text = "a\n" + long_line + "\nb\n";
  const auto plain = resolve_inputs({dir.write("p", text)});
  const auto packed = resolve_inputs({dir.write("z", zstd_frame(text))});
  const std::vector<std::string> expected = {"a", long_line, "b"};
  EXPECT_EQ(read_over_ranks(plain, 1, 8 << 20), expected);
  EXPECT_EQ(read_over_ranks(plain, 3, 8 << 20), expected);
  EXPECT_EQ(read_over_ranks(packed, 1, 8 << 20), expected);
}

TEST(IoLineReaderTest, CrlfIsStrippedAndBlankLinesAreKept) {
  TempDir dir;
  const std::string text = "one\r\n\r\n\ntwo\r\nthree\r";
  const std::vector<std::string> expected = {"one", "", "", "two", "three"};
  EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("p", text)}), 1), expected);
  EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("z", zstd_frame(text))}), 1), expected);
}

TEST(IoLineReaderTest, LfCrlfAndCrLineEndsGiveTheSameLines) {
  TempDir dir;
  const std::vector<std::string> lines = {"first", "", "second line", "", "", "last"};
  for (const std::string end : {"\n", "\r\n", "\r"}) {
    std::string text;
    for (const std::string& line : lines) text += line + end;
    const auto plain = resolve_inputs({dir.write("p", text)});
    const auto packed = resolve_inputs({dir.write("z", zstd_frame(text.substr(0, 9)) + zstd_frame(text.substr(9)))});
    for (int n_ranks : {1, 2, 3, 5, 8, 40}) {
      EXPECT_EQ(read_over_ranks(plain, n_ranks), lines) << n_ranks << " ranks, line end " << int(end.back());
      EXPECT_EQ(read_over_ranks(packed, n_ranks), lines) << n_ranks << " ranks, line end " << int(end.back());
    }
  }
}

TEST(IoLineReaderTest, EveryCutPointReadsEachLineOnce) {
  // Segments begin at every byte (plain) or every frame (zstd, a frame per
  // byte), so also between the '\r' and the '\n' of "\r\n".
  TempDir dir;
  const std::string text = "a\r\nb\rc\n\r\nd\r\r\ne\n\rf\r\n\r";
  const std::vector<std::string> expected = {"a", "b", "c", "", "d", "", "e", "", "f", ""};
  ASSERT_EQ(expected_lines(text), expected);
  std::string frames;
  for (char c : text) frames += zstd_frame(std::string(1, c));
  const auto plain = resolve_inputs({dir.write("p", text)});
  const auto packed = resolve_inputs({dir.write("z", frames)});
  for (int n_ranks = 1; n_ranks <= static_cast<int>(text.size()) + 1; ++n_ranks)
    EXPECT_EQ(read_over_ranks(plain, n_ranks), expected) << n_ranks << " ranks";
  for (int n_ranks = 1; n_ranks <= static_cast<int>(frames.size()); n_ranks += n_ranks < 60 ? 1 : 7)
    EXPECT_EQ(read_over_ranks(packed, n_ranks), expected) << n_ranks << " ranks";
}

const std::string kBom = "\xEF\xBB\xBF";

TEST(IoLineReaderTest, ByteOrderMarkAtTheFileStartIsDropped) {
  // Only before the first line: a BOM further on is text. Any cut; in zstd
  // also a BOM split over frames or after an empty frame.
  TempDir dir;
  const std::string text = kBom + "first\r\n" + kBom + "second\rthird";
  const std::vector<std::string> expected = {"first", kBom + "second", "third"};
  const auto plain = resolve_inputs({dir.write("p", text)});
  for (int n_ranks = 1; n_ranks <= static_cast<int>(text.size()) + 1; ++n_ranks)
    EXPECT_EQ(read_over_ranks(plain, n_ranks), expected) << n_ranks << " ranks";
  std::string byte_frames;
  for (char c : text) byte_frames += zstd_frame(std::string(1, c));
  for (const std::string& packed : {zstd_frame(text), zstd_frame("") + zstd_frame(text.substr(0, 2)) + zstd_frame(text.substr(2)),
                                    byte_frames}) {
    const auto files = resolve_inputs({dir.write("z", packed)});
    for (int n_ranks = 1; n_ranks <= static_cast<int>(packed.size()); n_ranks += n_ranks < 40 ? 1 : 5)
      EXPECT_EQ(read_over_ranks(files, n_ranks), expected) << n_ranks << " ranks, " << packed.size() << " bytes";
  }
}

TEST(IoLineReaderTest, EveryFileLosesItsOwnByteOrderMark) {
  TempDir dir;
  const auto files = resolve_inputs({dir.write("a", kBom + "a1\na2\n"), dir.write("b", zstd_frame(kBom + "b1\n")),
                                     dir.write("only-bom", kBom), dir.write("bom-newline", kBom + "\n"),
                                     dir.write("c", kBom + kBom + "c1")});
  const std::vector<std::string> expected = {"a1", "a2", "b1", "", kBom + "c1"};
  for (int n_ranks = 1; n_ranks <= 12; ++n_ranks) EXPECT_EQ(read_over_ranks(files, n_ranks), expected) << n_ranks << " ranks";
}

std::string file_contents(const std::string& path) {
  std::ostringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

TEST(IoLineReaderTest, ProcfsFileOfSizeZeroIsReadWhole) {
  const std::string text = file_contents("/proc/filesystems");
  ASSERT_FALSE(text.empty());
  for (int n_ranks = 1; n_ranks <= 3; ++n_ranks)
    EXPECT_EQ(read_over_ranks(resolve_inputs({"/proc/filesystems"}), n_ranks), expected_lines(text)) << n_ranks << " ranks";
  // Its values change from read to read, its lines do not.
  const auto status = read_over_ranks(resolve_inputs({"/proc/self/status"}), 2);
  EXPECT_EQ(status.size(), expected_lines(file_contents("/proc/self/status")).size());
  ASSERT_FALSE(status.empty());
  EXPECT_EQ(status[0].rfind("Name:", 0), 0u) << status[0];
}

TEST(IoLineReaderTest, FifoIsReadWholeInItsPlaceAmongOtherFiles) {
  // A FIFO can be read only once: one rank reads it, over several 1 MiB reads,
  // and its lines keep their place between the files around it.
  TempDir dir;
  std::mt19937 rng(17);
  const std::string before = random_text(rng, 5000), after = random_text(rng, 5000);
  const std::string streamed = random_text(rng, 3 << 20, 200000);
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto files = resolve_inputs({dir.write("before", before), fifo, dir.write("after", after)});
  std::vector<std::string> expected;
  for (const std::string& part : {before, streamed, after})
    for (const std::string& line : expected_lines(part)) expected.push_back(line);
  for (int n_ranks = 1; n_ranks <= 4; ++n_ranks) {
    test_support::FifoFeeder feeder(fifo, kBom + streamed);
    EXPECT_EQ(read_over_ranks(files, n_ranks), expected) << n_ranks << " ranks";
  }
}

TEST(IoLineReaderTest, ZstdFifoIsDecompressedAndATruncatedOneIsIoError) {
  TempDir dir;
  std::mt19937 rng(19);
  const std::string text = random_text(rng, 2 << 20, 100000);
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto files = resolve_inputs({fifo});
  for (const std::string& packed : {random_frames(rng, text, 300000), skippable_frame("lead") + zstd_frame(text, true)}) {
    test_support::FifoFeeder feeder(fifo, packed);
    EXPECT_EQ(read_over_ranks(files, 3), expected_lines(text));
  }
  const std::string packed = zstd_frame(text);
  test_support::FifoFeeder feeder(fifo, packed.substr(0, packed.size() / 2));
  EXPECT_THROW(read_over_ranks(files, 1), IoError);
}

TEST(IoLineReaderTest, LastLineWithoutNewlineCounts) {
  TempDir dir;
  EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("p", "a\nb")}), 1), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("q", "a\nb\n")}), 1), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("r", "\n")}), 1), (std::vector<std::string>{""}));
}

TEST(IoLineReaderTest, EmptyFileHasNoLines) {
  TempDir dir;
  const auto files = resolve_inputs({dir.write("empty", ""), dir.write("empty.zst", zstd_frame(""))});
  for (int n_ranks = 1; n_ranks <= 3; ++n_ranks) EXPECT_TRUE(read_over_ranks(files, n_ranks).empty());
}

TEST(IoLineReaderTest, TooLongLinesAreFlaggedAndSkipped) {
  TempDir dir;
  const std::string long_line(3000, 'y');
  const std::string text = "0123456789\n01234567890\n0123456789\r\n" + long_line + "\r\nok\n" + long_line;
  const std::vector<std::string> expected = {"0123456789", "<too long>", "0123456789", "<too long>", "ok", "<too long>"};
  ASSERT_EQ(expected_lines(text, 10), expected);
  const auto plain = resolve_inputs({dir.write("p", text)});
  const auto packed = resolve_inputs({dir.write("z", zstd_frame(text.substr(0, 40)) + zstd_frame(text.substr(40)))});
  for (int n_ranks = 1; n_ranks <= 5; ++n_ranks) {
    EXPECT_EQ(read_over_ranks(plain, n_ranks, 10), expected);
    EXPECT_EQ(read_over_ranks(packed, n_ranks, 10), expected);
  }
}

TEST(IoLineReaderTest, BytesConsumedReachesTheSegmentSize) {
  TempDir dir;
  std::mt19937 rng(5);
  const std::string text = random_text(rng, 50000);
  for (const auto& files : {resolve_inputs({dir.write("p", text)}), resolve_inputs({dir.write("z", random_frames(rng, text, 3000))})})
    for (int n_ranks = 1; n_ranks <= 3; ++n_ranks) {
      std::uint64_t total = 0;
      for (int rank = 0; rank < n_ranks; ++rank)
        for (const Segment& segment : plan_share(files, rank, n_ranks)) {
          LineReader reader(files[segment.file], segment, 1 << 20);
          Line line;
          std::uint64_t last = 0;
          while (reader.next(line)) {
            EXPECT_GE(reader.bytes_consumed(), last);
            last = reader.bytes_consumed();
          }
          total += reader.bytes_consumed();
        }
      EXPECT_EQ(total, files[0].size);
    }
}

TEST(IoLineReaderTest, CorruptZstdIsIoErrorNamingTheFile) {
  TempDir dir;
  std::mt19937 rng(9);
  // One block (< 128 KiB of text): damage its content, not the frame structure.
  std::string packed = zstd_frame(random_text(rng, 100000), true);
  for (std::size_t i = packed.size() / 3; i < packed.size() / 2; i += 7) packed[i] ^= 0x5A;
  const std::string path = dir.write("corrupt.zst", packed);
  const auto files = resolve_inputs({path});  // the frame structure is intact
  try {
    read_over_ranks(files, 1);
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": corrupt zstd data"), std::string::npos) << e.what();
  }
}

TEST(IoLineReaderTest, FileTruncatedAfterResolvingIsIoError) {
  TempDir dir;
  std::mt19937 rng(13);
  const std::string packed = zstd_frame(random_text(rng, 100000));
  const std::string path = dir.write("t.zst", packed);
  const auto files = resolve_inputs({path});
  dir.write("t.zst", packed.substr(0, packed.size() / 2));
  EXPECT_THROW(read_over_ranks(files, 1), IoError);
}

}  // namespace
}  // namespace tdcone::io
