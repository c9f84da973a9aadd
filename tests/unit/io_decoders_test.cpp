// gzip, xz and bzip2 input: detected from the magic bytes, not the name; a
// whole file is one segment read by one rank, in its place among the other
// files; concatenated members and streams are read fully (like zcat, xzcat,
// bzcat); truncated or damaged data is an IoError naming the file and format.
#include <bzlib.h>
#include <gtest/gtest.h>
#include <lzma.h>
#include <sys/stat.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"
#include "temp_files.hpp"

namespace tdcone::io {
namespace {

using test_support::TempDir;
using test_support::gzip_member;
using test_support::zstd_frame;

std::string xz_stream(std::string_view text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t written = 0;
  EXPECT_EQ(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                    text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &written, out.size()),
            LZMA_OK);
  out.resize(written);
  return out;
}

std::string bzip2_stream(std::string_view text) {
  unsigned size = static_cast<unsigned>(text.size() + text.size() / 100 + 700);
  std::string out(size, '\0');
  EXPECT_EQ(BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(text.data()),
                                     static_cast<unsigned>(text.size()), 9, 0, 0),
            BZ_OK);
  out.resize(size);
  return out;
}

using Compressor = std::string (*)(std::string_view);

struct Format {
  const char* name;
  Compression compression;
  Compressor compress;
};

const Format kFormats[] = {{"gzip", Compression::gzip, gzip_member},
                           {"xz", Compression::xz, xz_stream},
                           {"bzip2", Compression::bzip2, bzip2_stream}};

std::vector<std::string> expected_lines(std::string_view text) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find_first_of("\r\n", start);
    lines.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = text.substr(end, 2) == "\r\n" ? end + 2 : end + 1;
  }
  return lines;
}

std::vector<std::string> read_over_ranks(const std::vector<InputFile>& files, int n_ranks) {
  std::vector<std::string> lines;
  for (int rank = 0; rank < n_ranks; ++rank)
    for (const Segment& segment : plan_share(files, rank, n_ranks)) {
      LineReader reader(files[segment.file], segment, 1 << 20);
      for (Line line; reader.next(line);) lines.emplace_back(line.text);
    }
  return lines;
}

std::string random_text(std::mt19937& rng, std::size_t approx_bytes) {
  std::string text;
  std::uniform_int_distribution<int> letter('a', 'z');
  while (text.size() < approx_bytes) {
    const std::size_t length = rng() % 4 == 0 ? 0 : rng() % 120;
    for (std::size_t i = 0; i < length; ++i) text += static_cast<char>(i % 6 == 5 ? ' ' : letter(rng));
    text += rng() % 10 == 0 ? "\r\n" : "\n";
  }
  return text;
}

// The error of reading `files` on one rank, or "" when there is none.
std::string read_error(const std::vector<InputFile>& files) {
  try {
    read_over_ranks(files, 1);
  } catch (const IoError& e) {
    return e.what();
  }
  return "";
}

TEST(IoCompressedInputTest, DetectedFromMagicBytesNotName) {
  TempDir dir;
  const auto files = resolve_inputs({dir.write("a.txt", gzip_member("x\n")), dir.write("b.gz", xz_stream("x\n")),
                                     dir.write("c", bzip2_stream("x\n")), dir.write("d.bz2", bzip2_stream("")),
                                     dir.write("e.gz", "BZh9 is text\n"), dir.write("f.xz", "\x1F\x8B")});
  EXPECT_EQ(files[0].compression, Compression::gzip);
  EXPECT_EQ(files[1].compression, Compression::xz);
  EXPECT_EQ(files[2].compression, Compression::bzip2);
  EXPECT_EQ(files[3].compression, Compression::bzip2);  // an empty stream: header and end-of-stream signature
  EXPECT_EQ(files[4].compression, Compression::none);   // "BZh9" but no block signature after it
  EXPECT_EQ(files[5].compression, Compression::none);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(files[i].frame_offsets, (std::vector<std::uint64_t>{0, files[i].size}));
  EXPECT_STREQ(compression_name(Compression::gzip), "gzip");
  EXPECT_STREQ(compression_name(Compression::bzip2), "bzip2");
}

TEST(IoCompressedInputTest, WholeFileIsOneSegmentInItsPlaceAmongOtherFiles) {
  TempDir dir;
  std::mt19937 rng(21);
  for (const Format& format : kFormats) {
    const std::string a = random_text(rng, 20000), b = random_text(rng, 300000), c = random_text(rng, 20000);
    const auto files = resolve_inputs({dir.write("a", a), dir.write("b", format.compress(b)), dir.write("c", zstd_frame(c))});
    ASSERT_EQ(files[1].compression, format.compression);
    std::vector<std::string> expected;
    for (const std::string& part : {a, b, c})
      for (const std::string& line : expected_lines(part)) expected.push_back(line);
    for (int n_ranks = 1; n_ranks <= 6; ++n_ranks) {
      int owners = 0;
      for (int rank = 0; rank < n_ranks; ++rank)
        for (const Segment& s : plan_share(files, rank, n_ranks))
          if (s.file == 1) {
            ++owners;
            EXPECT_EQ(s.begin, 0u);
            EXPECT_EQ(s.end, 1u);
            EXPECT_EQ(segment_bytes(files[1], s), files[1].size);
          }
      EXPECT_EQ(owners, 1) << format.name << ", " << n_ranks << " ranks";
      ASSERT_EQ(read_over_ranks(files, n_ranks), expected) << format.name << ", " << n_ranks << " ranks";
    }
  }
}

TEST(IoCompressedInputTest, ConcatenatedMembersAreReadFullyWithACutAtEveryLineOrByte) {
  TempDir dir;
  const std::string text = "first line\r\nsecond\n\n\xEF\xBB\xBFthird\rlast";
  for (const Format& format : kFormats) {
    std::string per_line, per_byte;
    for (const std::string& line : expected_lines(text)) per_line += format.compress(line + "\n");
    for (char c : text) per_byte += format.compress(std::string(1, c));
    std::string with_empty = format.compress("") + format.compress(text.substr(0, 7)) + format.compress("") +
                             format.compress(text.substr(7)) + format.compress("");
    const std::vector<std::string> lines = {"first line", "second", "", "\xEF\xBB\xBFthird", "last"};
    EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("lines", per_line)}), 2), lines) << format.name;
    EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("bytes", per_byte)}), 3), expected_lines(text)) << format.name;
    EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("empty", with_empty)}), 1), expected_lines(text)) << format.name;
  }
  // A byte order mark at the start of the decompressed text is dropped, as in plain files.
  const auto bom = resolve_inputs({dir.write("bom", gzip_member("\xEF\xBB\xBF" "a\nb\n"))});
  EXPECT_EQ(read_over_ranks(bom, 1), (std::vector<std::string>{"a", "b"}));
}

TEST(IoCompressedInputTest, EmptyTextAndOnlyAHeaderLine) {
  TempDir dir;
  for (const Format& format : kFormats) {
    EXPECT_TRUE(read_over_ranks(resolve_inputs({dir.write("e", format.compress(""))}), 2).empty()) << format.name;
    EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("h", format.compress("src\ttgt\n"))}), 3),
              (std::vector<std::string>{"src\ttgt"}))
        << format.name;
    EXPECT_EQ(read_over_ranks(resolve_inputs({dir.write("n", format.compress("no line end"))}), 1),
              (std::vector<std::string>{"no line end"}))
        << format.name;
  }
}

TEST(IoCompressedInputTest, TruncatedAtAnyByteIsIoErrorNamingFileAndFormat) {
  TempDir dir;
  std::mt19937 rng(5);
  const std::string text = random_text(rng, 3000);
  for (const Format& format : kFormats) {
    const std::string packed = format.compress(text);
    const std::string path = dir.path(std::string("cut.") + format.name);
    // Shorter than the magic the file is plain text; from there on every cut is an error.
    for (std::size_t size = 10; size < packed.size(); size += size < 100 ? 1 : 13) {
      dir.write(std::string("cut.") + format.name, packed.substr(0, size));
      const auto files = resolve_inputs({path});
      ASSERT_EQ(files[0].compression, format.compression);
      const std::string error = read_error(files);
      ASSERT_NE(error.find(path + ": corrupt " + format.name + " data"), std::string::npos)
          << format.name << " cut at " << size << " of " << packed.size() << ": '" << error << "'";
    }
  }
}

TEST(IoCompressedInputTest, DamagedDataOrTrailingGarbageIsIoError) {
  TempDir dir;
  std::mt19937 rng(6);
  const std::string text = random_text(rng, 50000);
  for (const Format& format : kFormats) {
    std::string damaged = format.compress(text);
    for (std::size_t i = damaged.size() / 3; i < damaged.size() / 2; i += 11) damaged[i] ^= 0x5A;
    const std::string path = dir.write("damaged", damaged);
    EXPECT_NE(read_error(resolve_inputs({path})).find(path + ": corrupt " + format.name + " data"), std::string::npos)
        << format.name;
    const std::string trailing = dir.write("trailing", format.compress(text) + "garbage after the end\n");
    EXPECT_NE(read_error(resolve_inputs({trailing})).find(trailing + ": corrupt " + format.name + " data"),
              std::string::npos)
        << format.name;
  }
  // xz allows stream padding (a multiple of four zero bytes) between and after streams.
  const std::string padded = dir.write("padded", xz_stream("a\n") + std::string(8, '\0') + xz_stream("b\n") + std::string(4, '\0'));
  EXPECT_EQ(read_over_ranks(resolve_inputs({padded}), 1), (std::vector<std::string>{"a", "b"}));
}

TEST(IoCompressedInputTest, FifoIsDetectedAndDecompressed) {
  TempDir dir;
  std::mt19937 rng(8);
  const std::string text = random_text(rng, 2 << 20);
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto files = resolve_inputs({fifo});
  for (const Format& format : kFormats) {
    test_support::FifoFeeder feeder(fifo, format.compress(text.substr(0, 1 << 20)) + format.compress(text.substr(1 << 20)));
    EXPECT_EQ(read_over_ranks(files, 2), expected_lines(text)) << format.name;
  }
  const std::string packed = gzip_member(text);
  test_support::FifoFeeder feeder(fifo, packed.substr(0, packed.size() / 2));
  EXPECT_NE(read_error(files).find("corrupt gzip data"), std::string::npos);
}

TEST(IoCompressedInputTest, BytesConsumedReachesTheFileSize) {
  TempDir dir;
  std::mt19937 rng(4);
  const std::string text = random_text(rng, 3 << 20);  // several 1 MiB reads of compressed input
  for (const Format& format : kFormats) {
    const auto files = resolve_inputs({dir.write("f", format.compress(text))});
    const Segment segment = plan_share(files, 0, 1).at(0);
    LineReader reader(files[0], segment, 1 << 20);
    std::uint64_t last = 0;
    for (Line line; reader.next(line);) {
      EXPECT_GE(reader.bytes_consumed(), last);
      EXPECT_LE(reader.bytes_consumed(), files[0].size);
      last = reader.bytes_consumed();
    }
    EXPECT_EQ(reader.bytes_consumed(), files[0].size) << format.name;
  }
}

}  // namespace
}  // namespace tdcone::io
