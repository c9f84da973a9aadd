// The one zstd writer (io/zstd_writer.hpp): framed files readers can split,
// a streamed frame, plain text through the same checked writes, and a full
// disk reported as an IoError naming the file.
#include "tdcone/io/zstd_writer.hpp"

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"
#include "temp_files.hpp"

namespace tdcone::io {
namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The frames of `bytes`: each one's compressed size and recorded content size.
struct Frame {
  std::size_t compressed;
  unsigned long long content;
};
std::vector<Frame> frames_of(const std::string& bytes) {
  std::vector<Frame> frames;
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t size = ZSTD_findFrameCompressedSize(bytes.data() + at, bytes.size() - at);
    EXPECT_FALSE(ZSTD_isError(size));
    if (ZSTD_isError(size)) break;
    frames.push_back({size, ZSTD_getFrameContentSize(bytes.data() + at, size)});
    at += size;
  }
  return frames;
}

std::string decompress(const std::string& bytes) {
  std::string out;
  ZSTD_DStream* stream = ZSTD_createDStream();
  std::vector<char> chunk(ZSTD_DStreamOutSize());
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  while (in.pos < in.size) {
    ZSTD_outBuffer buffer{chunk.data(), chunk.size(), 0};
    const std::size_t status = ZSTD_decompressStream(stream, &buffer, &in);
    EXPECT_FALSE(ZSTD_isError(status));
    if (ZSTD_isError(status)) break;
    out.append(chunk.data(), buffer.pos);
  }
  ZSTD_freeDStream(stream);
  return out;
}

// Text that compresses but not to nothing: numbered lines.
std::string lines(std::size_t bytes) {
  std::string text;
  for (std::size_t n = 0; text.size() < bytes; ++n) text += "line " + std::to_string(n * 7919 % 100003) + "\n";
  text.resize(bytes);
  return text;
}

TEST(ZstdWriter, FramesOfFrameBytesEachWithTheirContentSize) {
  const test_support::TempDir dir;
  const std::string text = lines(2500);
  ZstdWriter writer(dir.path("out.zst"), {.compress = true, .level = 3, .frame_bytes = 1000});
  for (std::size_t at = 0; at < text.size(); at += 333) writer.write(std::string_view(text).substr(at, 333));
  writer.finish();
  const std::string bytes = read_bytes(dir.path("out.zst"));
  const std::vector<Frame> frames = frames_of(bytes);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].content, 1000u);
  EXPECT_EQ(frames[1].content, 1000u);
  EXPECT_EQ(frames[2].content, 500u);
  EXPECT_EQ(decompress(bytes), text);
}

// zstd_frame (checkpoints, which carry their own checksum) is ZSTD_compress's
// frame; a ZstdWriter's frame is that frame with a content checksum.
TEST(ZstdWriter, AFrameIsWhatZstdCompressWritesPlusAChecksum) {
  const std::string text = lines(5000);
  std::string expected(ZSTD_compressBound(text.size()), '\0');
  expected.resize(ZSTD_compress(expected.data(), expected.size(), text.data(), text.size(), 3));
  EXPECT_EQ(zstd_frame(text, 3, "test"), expected);

  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 3);
  ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
  std::string checked(ZSTD_compressBound(text.size()), '\0');
  checked.resize(ZSTD_compress2(context, checked.data(), checked.size(), text.data(), text.size()));
  ZSTD_freeCCtx(context);
  EXPECT_EQ(checked.size(), expected.size() + 4);  // the checksum at the end

  const test_support::TempDir dir;
  ZstdWriter writer(dir.path("one.zst"), {.compress = true, .level = 3, .frame_bytes = text.size()});
  writer.write(text);
  writer.finish();
  EXPECT_EQ(read_bytes(dir.path("one.zst")), checked);
}

// A flipped byte in the compressed data is found by the checksum, streamed or framed.
TEST(ZstdWriter, EveryFrameCarriesAChecksumThatFindsADamagedByte) {
  for (const std::size_t frame_bytes : {std::size_t{1000}, std::size_t{0}}) {
    const test_support::TempDir dir;
    const std::string text = lines(2500);
    ZstdWriter writer(dir.path("out.zst"), {.compress = true, .level = 3, .frame_bytes = frame_bytes});
    writer.write(text);
    writer.finish();
    std::string bytes = read_bytes(dir.path("out.zst"));
    std::size_t at = 0;
    while (at < bytes.size()) {
      ASSERT_LT(at + 4, bytes.size());
      EXPECT_TRUE(static_cast<unsigned char>(bytes[at + 4]) & 0x04);  // the frame header's Content_Checksum_flag
      at += ZSTD_findFrameCompressedSize(bytes.data() + at, bytes.size() - at);
    }
    bytes[bytes.size() - 1] ^= 0x01;  // the last checksum's last byte
    std::string out(text.size() + 10, '\0');
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), bytes.data(), bytes.size());
    EXPECT_TRUE(ZSTD_isError(n)) << frame_bytes;
  }
}

TEST(ZstdWriter, AnEmptyInputIsOneEmptyFrame) {
  const test_support::TempDir dir;
  ZstdWriter writer(dir.path("empty.zst"));
  writer.finish();
  const std::string bytes = read_bytes(dir.path("empty.zst"));
  const std::vector<Frame> frames = frames_of(bytes);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].content, 0u);
}

TEST(ZstdWriter, AStreamedFrameHasNoContentSize) {
  const test_support::TempDir dir;
  const std::string text = lines(3 * kZstdFrameBytes + 12345);
  ZstdWriter writer(dir.path("stream.zst"), {.compress = true, .level = 3, .frame_bytes = 0});
  for (std::size_t at = 0; at < text.size(); at += 100000) writer.write(std::string_view(text).substr(at, 100000));
  writer.finish();
  const std::string bytes = read_bytes(dir.path("stream.zst"));
  const std::vector<Frame> frames = frames_of(bytes);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].content, ZSTD_CONTENTSIZE_UNKNOWN);
  EXPECT_EQ(decompress(bytes), text);
}

TEST(ZstdWriter, PlainWritesTheBytesAsGiven) {
  const test_support::TempDir dir;
  const std::string text = lines(kZstdFrameBytes + 777);
  ZstdWriter writer(dir.path("plain.txt"), {.compress = false});
  writer.write(std::string_view(text).substr(0, 1000));
  writer.write(std::string_view(text).substr(1000));
  writer.finish();
  EXPECT_EQ(read_bytes(dir.path("plain.txt")), text);
}

TEST(ZstdWriter, AnOpenFileStaysOpen) {
  const test_support::TempDir dir;
  std::FILE* file = std::fopen(dir.path("open.txt").c_str(), "wb");
  ASSERT_NE(file, nullptr);
  {
    ZstdWriter writer(file, "open.txt", {.compress = false});
    writer.write("first\n");
    writer.finish();
  }
  EXPECT_GE(std::fputs("second\n", file), 0);
  std::fclose(file);
  EXPECT_EQ(read_bytes(dir.path("open.txt")), "first\nsecond\n");
}

TEST(ZstdWriter, AMissingDirectoryIsAnIoErrorNamingThePath) {
  const test_support::TempDir dir;
  const std::string path = dir.path("no/such/dir/out.zst");
  try {
    ZstdWriter writer(path);
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open " + path + " for writing"), std::string::npos) << e.what();
  }
}

TEST(ZstdWriter, AFullDiskIsAnIoErrorNamingTheFile) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (const bool compress : {true, false}) {
    ZstdWriter writer("/dev/full", {.compress = compress});
    try {
      writer.write(lines(3 * kZstdFrameBytes));
      writer.finish();
      FAIL() << "no error";
    } catch (const IoError& e) {
      EXPECT_EQ(std::string(e.what()), "cannot write /dev/full: No space left on device");
    }
  }
}

}  // namespace
}  // namespace tdcone::io
