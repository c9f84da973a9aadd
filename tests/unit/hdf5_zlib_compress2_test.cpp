// The program's compress2() (hdf5/zlib_compress2.cpp): it is the one
// HDF5's deflate filter reaches, and it keeps zlib's contract, so any zlib
// inflates what it writes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/hdf5/zlib_compress2.hpp"

namespace {

std::string sample_chunk(std::size_t n) {
  std::string bytes;
  for (std::size_t i = 0; bytes.size() < n; ++i) bytes += "row " + std::to_string(i * 7919 % 1009) + "; ";
  bytes.resize(n);
  return bytes;
}

std::string inflated(const std::vector<Bytef>& stream, std::size_t size) {
  std::string out(size, '\0');
  uLongf out_size = size;
  EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(out.data()), &out_size, stream.data(), stream.size()), Z_OK);
  out.resize(out_size);
  return out;
}

TEST(H5Deflate, Compress2OfThisProgramIsTheOneHdf5Calls) { EXPECT_TRUE(tdcone::hdf5::compress2_is_ours()); }

TEST(H5Deflate, EveryLevelGivesAStreamZlibInflates) {
  const std::string chunk = sample_chunk(200000);
  for (int level : {Z_DEFAULT_COMPRESSION, 0, 1, 4, 9}) {
    std::vector<Bytef> stream(compressBound(chunk.size()));
    uLongf size = stream.size();
    ASSERT_EQ(compress2(stream.data(), &size, reinterpret_cast<const Bytef*>(chunk.data()), chunk.size(), level), Z_OK)
        << "level " << level;
    stream.resize(size);
    if (level != 0) {
      EXPECT_LT(size, chunk.size() / 3) << "level " << level;
    }
    EXPECT_EQ(inflated(stream, chunk.size()), chunk) << "level " << level;
  }
}

// HDF5 offers compressBound() bytes; a stream of random bits fits in them
// (stored), small as it may be, at level 1 (igzip) and at the others
// (libdeflate). (A failed compression of HDF5's optional deflate filter left
// a chunk that did not read back, with parallel HDF5 1.10.)
TEST(H5Deflate, RandomBytesFitInCompressBound) {
  std::uint64_t state = 99;
  for (int level : {1, 4}) {
    for (std::size_t n : {1u, 8u, 64u, 100u, 1000u, 70000u, 600000u}) {
      std::string chunk(n, '\0');
      for (char& c : chunk) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        c = static_cast<char>(state >> 56);
      }
      std::vector<Bytef> stream(compressBound(n));
      uLongf size = stream.size();
      ASSERT_EQ(compress2(stream.data(), &size, reinterpret_cast<const Bytef*>(chunk.data()), n, level), Z_OK)
          << n << " bytes, level " << level;
      stream.resize(size);
      EXPECT_EQ(inflated(stream, n), chunk) << n << " bytes, level " << level;
    }
  }
}

TEST(H5Deflate, TooLittleRoomAndBadLevelsAreZlibErrors) {
  const std::string chunk = sample_chunk(5000);
  std::vector<Bytef> stream(compressBound(chunk.size()));
  uLongf size = 0;
  for (int level : {1, 4}) {
    size = 10;
    EXPECT_EQ(compress2(stream.data(), &size, reinterpret_cast<const Bytef*>(chunk.data()), chunk.size(), level),
              Z_BUF_ERROR)
        << "level " << level;
  }
  size = stream.size();
  EXPECT_EQ(compress2(stream.data(), &size, reinterpret_cast<const Bytef*>(chunk.data()), chunk.size(), 10),
            Z_STREAM_ERROR);
  for (int level : {1, 4}) {  // an empty chunk is a stream too
    std::vector<Bytef> empty(compressBound(0));
    size = empty.size();
    ASSERT_EQ(compress2(empty.data(), &size, nullptr, 0, level), Z_OK) << "level " << level;
    empty.resize(size);
    EXPECT_EQ(inflated(empty, 0), "") << "level " << level;
  }
}

}  // namespace
