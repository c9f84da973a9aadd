// The program's compress2() (hdf5/deflate_by_libdeflate.cpp): it is the one
// HDF5's deflate filter reaches, and it keeps zlib's contract, so any zlib
// inflates what it writes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/hdf5/deflate_by_libdeflate.hpp"

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

TEST(H5Deflate, Compress2OfThisProgramIsTheOneHdf5Calls) { EXPECT_TRUE(tdcone::h5::compress2_is_libdeflate()); }

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
// (stored), small as it may be. (A failed compression of HDF5's optional
// deflate filter left a chunk that did not read back, with parallel HDF5 1.10.)
TEST(H5Deflate, RandomBytesFitInCompressBound) {
  std::uint64_t state = 99;
  for (std::size_t n : {1u, 8u, 64u, 100u, 1000u, 70000u}) {
    std::string chunk(n, '\0');
    for (char& c : chunk) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      c = static_cast<char>(state >> 56);
    }
    std::vector<Bytef> stream(compressBound(n));
    uLongf size = stream.size();
    ASSERT_EQ(compress2(stream.data(), &size, reinterpret_cast<const Bytef*>(chunk.data()), n, 4), Z_OK) << n << " bytes";
    stream.resize(size);
    EXPECT_EQ(inflated(stream, n), chunk) << n << " bytes";
  }
}

TEST(H5Deflate, TooLittleRoomAndBadLevelsAreZlibErrors) {
  const std::string chunk = sample_chunk(5000);
  std::vector<Bytef> stream(compressBound(chunk.size()));
  uLongf size = 10;
  EXPECT_EQ(compress2(stream.data(), &size, reinterpret_cast<const Bytef*>(chunk.data()), chunk.size(), 4), Z_BUF_ERROR);
  size = stream.size();
  EXPECT_EQ(compress2(stream.data(), &size, reinterpret_cast<const Bytef*>(chunk.data()), chunk.size(), 10),
            Z_STREAM_ERROR);
  size = stream.size();
  ASSERT_EQ(compress2(stream.data(), &size, nullptr, 0, 4), Z_OK);  // an empty chunk is a stream too
  stream.resize(size);
  EXPECT_EQ(inflated(stream, 0), "");
}

}  // namespace
