// resolve_inputs (globs, compression by magic bytes, zstd frame scan, streams)
// and plan_share (every byte / frame / stream owned by exactly one rank).
#include "tdcone/io/input_files.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/io/line_reader.hpp"
#include "temp_files.hpp"

namespace tdcone::io {
namespace {

namespace fs = std::filesystem;

using test_support::zstd_frame;

using test_support::TempDir;

// A frame from the streaming API without a pledged size: no Frame_Content_Size.
std::string zstd_stream_frame(std::string_view chunk) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::string out(ZSTD_compressBound(chunk.size()) + 64, '\0');
  ZSTD_inBuffer in{chunk.data(), chunk.size(), 0};
  ZSTD_outBuffer dst{out.data(), out.size(), 0};
  EXPECT_EQ(ZSTD_compressStream2(cctx, &dst, &in, ZSTD_e_end), 0u);
  ZSTD_freeCCtx(cctx);
  out.resize(dst.pos);
  return out;
}

std::string skippable_frame(std::string_view payload) {
  std::string out = "\x5F\x2A\x4D\x18";
  for (int i = 0; i < 4; ++i) out += static_cast<char>((payload.size() >> (8 * i)) & 0xFF);
  return out + std::string(payload);
}

TEST(IoInputFilesTest, CompressionIsDetectedFromMagicBytesNotName) {
  TempDir dir;
  const std::string packed = zstd_frame("hello\n", false);
  const auto files = resolve_inputs({dir.write("looks.zst", "plain text\n"), dir.write("looks.txt", packed),
                                     dir.write("tiny", "ab"), dir.write("empty", "")});
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].compression, Compression::none);
  EXPECT_EQ(files[0].size, 11u);
  EXPECT_TRUE(files[0].frame_offsets.empty());
  EXPECT_EQ(files[1].compression, Compression::zstd);
  EXPECT_EQ(files[1].frame_offsets, (std::vector<std::uint64_t>{0, packed.size()}));
  EXPECT_EQ(files[2].compression, Compression::none);
  EXPECT_EQ(files[3].compression, Compression::none);
  EXPECT_EQ(files[3].size, 0u);
}

TEST(IoInputFilesTest, FrameScanFindsEveryDataFrameAndSkipsSkippableOnes) {
  TempDir dir;
  std::mt19937 rng(1);
  std::string noise(200000, '\0');  // incompressible: raw blocks
  for (char& c : noise) c = static_cast<char>(rng());
  const std::vector<std::string> frames = {
      zstd_frame("short\n", true),                  // 1-byte content size, checksum
      zstd_frame(std::string(300000, 'a'), false),  // RLE blocks, several blocks
      zstd_frame(noise, true),                      // raw blocks
      zstd_frame("", false),                        // empty frame
      zstd_stream_frame(std::string(5000, 'q')),    // no content size, window descriptor
      zstd_frame(std::string(1000, 'z') + "\n", true),
  };
  std::string bytes = skippable_frame("leading");
  std::vector<std::uint64_t> expected;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    expected.push_back(bytes.size());
    bytes += frames[i];
    if (i % 2) bytes += skippable_frame(std::string(i * 10, 'k'));
  }
  bytes += skippable_frame("");
  expected.push_back(bytes.size());
  // A leading skippable frame (as pzstd writes) also marks a zstd file.
  const auto files = resolve_inputs({dir.write("frames", bytes), dir.write("frames2", bytes.substr(expected[0]))});
  ASSERT_EQ(files[0].compression, Compression::zstd);
  EXPECT_EQ(files[0].frame_offsets, expected);
  ASSERT_EQ(files[1].compression, Compression::zstd);
  std::vector<std::uint64_t> shifted;
  for (std::uint64_t offset : expected) shifted.push_back(offset - expected[0]);
  EXPECT_EQ(files[1].frame_offsets, shifted);
}

TEST(IoInputFilesTest, TruncatedOrCorruptZstdIsIoErrorNamingTheFile) {
  TempDir dir;
  const std::string packed = zstd_frame(std::string(100000, 'x') + "\n", true) + zstd_frame("tail\n", true);
  for (const std::string& bad : {packed.substr(0, packed.size() - 1), packed.substr(0, 7), packed + "garbage!"}) {
    const std::string path = dir.write("bad.zst", bad);
    try {
      resolve_inputs({path});
      FAIL() << "no error for " << bad.size() << " bytes";
    } catch (const IoError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

TEST(IoInputFilesTest, GlobMatchesAreSortedAndPatternOrderIsKept) {
  TempDir dir;
  for (const char* name : {"c.txt", "a.txt", "b.txt", "z.dat"}) dir.write(name, "x\n");
  const auto files = resolve_inputs({dir.path("z.dat"), dir.path("*.txt"), dir.path("?.dat")});
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.path);
  EXPECT_EQ(paths, (std::vector<std::string>{dir.path("z.dat"), dir.path("a.txt"), dir.path("b.txt"), dir.path("c.txt"),
                                             dir.path("z.dat")}));
}

TEST(IoInputFilesTest, MissingFileOrEmptyGlobIsUsageErrorNamingIt) {
  TempDir dir;
  const auto message = [](const std::string& pattern) -> std::string {
    try {
      resolve_inputs({pattern});
    } catch (const UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(dir.path("missing.tsv")), "input file not found: " + dir.path("missing.tsv"));
  EXPECT_EQ(message(dir.path("*.tsv")), "no file matches " + dir.path("*.tsv"));
  EXPECT_EQ(message(dir.path("")), "input is a directory: " + dir.path(""));
}

TEST(IoInputFilesTest, PipesFifosAndProcfsFilesAreStreamsAndAreNotReadWhenResolving) {
  TempDir dir;
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Hold the FIFO open at both ends, with bytes waiting in it: resolving
  // must neither block on it nor take those bytes.
  const int fd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "\x28\xB5\x2F\xFDzst", 7), 7);
  const auto files = resolve_inputs({fifo, "/proc/self/status", dir.write("regular", "a\n")});
  char back[8];
  EXPECT_EQ(::read(fd, back, sizeof back), 7);
  ::close(fd);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_TRUE(files[0].stream);
  EXPECT_TRUE(files[1].stream);  // a regular file whose size reads as 0
  EXPECT_FALSE(files[2].stream);
  EXPECT_EQ(files[0].compression, Compression::none);  // detected by the rank that reads it
}

// Owner rank of a global byte offset, straight from the definition: the
// bytes before the last stream (at `streams_end`) go to rank 0 with it.
int owner(std::uint64_t global, std::uint64_t total, int n_ranks, std::uint64_t streams_end = 0) {
  if (global < streams_end) return 0;
  for (int r = 0; r < n_ranks; ++r)
    if (global < (static_cast<unsigned __int128>(total) * (r + 1)) / n_ranks) return r;
  return -1;
}

TEST(IoInputFilesTest, PlanShareGivesEveryByteAndFrameToExactlyOneRankInOrder) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<InputFile> files(1 + rng() % 5);
    std::uint64_t total = 0, streams_end = 0;
    for (InputFile& f : files) {
      if (trial % 3 == 0 && rng() % 4 == 0) {
        f.stream = true;
        streams_end = total;
        continue;
      }
      f.size = rng() % 4 == 0 ? rng() % 3 : rng() % 2000;
      if (f.size > 0 && rng() % 2) {
        f.compression = Compression::zstd;
        for (std::uint64_t at = rng() % 3 == 0 ? rng() % f.size : 0; at < f.size; at += 1 + rng() % 300)
          f.frame_offsets.push_back(at);
        f.frame_offsets.push_back(f.size);
      }
      total += f.size;
    }
    for (int n_ranks = 1; n_ranks <= 5; ++n_ranks) {
      // Expected owner of each unit (byte of a plain file, frame of a zstd file).
      std::vector<std::vector<int>> want(files.size()), got(files.size());
      std::uint64_t base = 0;
      for (std::size_t i = 0; i < files.size(); ++i) {
        const InputFile& f = files[i];
        if (f.stream)
          want[i].push_back(0);  // one unit, the whole stream
        else if (f.compression == Compression::none)
          for (std::uint64_t b = 0; b < f.size; ++b) want[i].push_back(owner(base + b, total, n_ranks, streams_end));
        else
          for (std::size_t k = 0; k + 1 < f.frame_offsets.size(); ++k)
            want[i].push_back(owner(base + f.frame_offsets[k], total, n_ranks, streams_end));
        got[i].assign(want[i].size(), -1);
        base += f.size;
      }
      std::pair<std::size_t, std::uint64_t> last{0, 0};
      for (int rank = 0; rank < n_ranks; ++rank)
        for (const Segment& s : plan_share(files, rank, n_ranks)) {
          ASSERT_LT(s.begin, s.end);
          ASSERT_LE(s.end, got[s.file].size());
          ASSERT_GE(std::make_pair(s.file, s.begin), last) << "segments out of order";
          last = {s.file, s.end};
          for (std::uint64_t u = s.begin; u < s.end; ++u) {
            ASSERT_EQ(got[s.file][u], -1) << "unit owned twice";
            got[s.file][u] = rank;
          }
        }
      ASSERT_EQ(got, want) << "trial " << trial << ", " << n_ranks << " ranks";
    }
  }
}

TEST(IoInputFilesTest, SingleFrameFileGoesToOneRank) {
  InputFile f;
  f.size = 1000;
  f.compression = Compression::zstd;
  f.frame_offsets = {0, 1000};
  const std::vector<InputFile> files = {f};
  EXPECT_EQ(plan_share(files, 0, 4).size(), 1u);
  for (int rank = 1; rank < 4; ++rank) EXPECT_TRUE(plan_share(files, rank, 4).empty());
  EXPECT_TRUE(plan_share({}, 0, 3).empty());
}

// How a rank's view of an input is told from rank 0's (mpi::agreed_inputs).
TEST(IoInputFilesTest, FilesDifferUnlessTheSameFileOrItsGrowthOrAFaithfulCopy) {
  InputFile there;
  there.path = "c.tsv";
  there.size = 1000;
  there.device = 7;
  there.inode = 42;
  there.mtime_ns = 5'000;
  const auto with = [&](auto change) {
    InputFile here = there;
    change(here);
    return here;
  };
  constexpr bool kSameHost = true, kOtherHost = false;
  EXPECT_EQ(how_files_differ(there, there, kSameHost), "");
  const InputFile grown = with([](InputFile& f) { f.size = 1500, f.mtime_ns = 6'000; });
  EXPECT_EQ(how_files_differ(grown, there, kSameHost), "") << "appended to since rank 0 looked: the prefix is read";
  const InputFile shared = with([](InputFile& f) { f.device = 99; });  // another host's number for a shared mount
  EXPECT_EQ(how_files_differ(shared, there, kOtherHost), "");
  EXPECT_NE(how_files_differ(shared, there, kSameHost).find("another file here (device 99, inode 42, 1000 bytes) "
                                                           "than there (device 7, inode 42, 1000 bytes)"),
            std::string::npos);
  const InputFile staged = with([](InputFile& f) { f.device = 3, f.inode = 8; });  // cp -p to node-local disk
  EXPECT_EQ(how_files_differ(staged, there, kOtherHost), "");
  EXPECT_NE(how_files_differ(staged, there, kSameHost).find("another file here"), std::string::npos);
  const InputFile other_copy = with([](InputFile& f) { f.inode = 8, f.size = 1200, f.mtime_ns = 9'000; });
  EXPECT_NE(how_files_differ(other_copy, there, kOtherHost).find("another file here (inode 8, 1200 bytes) than there "
                                                                "(inode 42, 1000 bytes)"),
            std::string::npos);
  const InputFile cut = with([](InputFile& f) { f.size = 600; });
  EXPECT_NE(how_files_differ(cut, there, kSameHost).find("it has 600 bytes here but 1000 there"), std::string::npos);
  const InputFile rewritten = with([](InputFile& f) { f.mtime_ns = 6'000; });
  EXPECT_NE(how_files_differ(rewritten, there, kSameHost).find("modified at another time"), std::string::npos);
  const InputFile older_yet_longer = with([](InputFile& f) { f.size = 1500, f.mtime_ns = 4'000; });
  EXPECT_NE(how_files_differ(older_yet_longer, there, kSameHost).find("modified at another time"), std::string::npos);
  const InputFile renamed = with([](InputFile& f) { f.path = "d.tsv"; });
  EXPECT_EQ(how_files_differ(renamed, there, kSameHost), "the file is d.tsv here but c.tsv there");
  const InputFile fifo = with([](InputFile& f) { f.stream = true, f.size = 0; });
  EXPECT_NE(how_files_differ(fifo, there, kSameHost).find("a stream"), std::string::npos);
  EXPECT_EQ(how_files_differ(fifo, fifo, kOtherHost), "");
}

// A file appended to after it was resolved is read up to the size resolved.
TEST(IoInputFilesTest, ReadingStopsAtTheResolvedSize) {
  const TempDir dir;
  const std::string path = dir.write("grow.tsv", "a\tb\nc\td\n");
  const std::vector<InputFile> files = resolve_inputs({path});
  std::ofstream(path, std::ios::app) << "e\tf\ng\th";
  std::vector<std::string> lines;
  for (const Segment& segment : plan_share(files, 0, 1)) {
    LineReader reader(files[segment.file], segment, 1 << 20);
    for (Line line; reader.next(line);) lines.emplace_back(line.text);
  }
  EXPECT_EQ(lines, (std::vector<std::string>{"a\tb", "c\td"}));
}

}  // namespace
}  // namespace tdcone::io
