// The zstd filter class on its own: one frame per chunk with its content
// size, level from cd_values[0], failures reported as 0.
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tdcone/hdf5/zstd_filter.hpp"

namespace {

using tdcone::hdf5::kZstdFilterId;
using tdcone::hdf5::zstd_filter_class;

// A malloc'ed buffer as HDF5 hands it to a filter.
struct FilterBuffer {
  void* data = nullptr;
  std::size_t size = 0;
  explicit FilterBuffer(const std::string& bytes) : data(std::malloc(bytes.size())), size(bytes.size()) {
    std::memcpy(data, bytes.data(), bytes.size());
  }
  ~FilterBuffer() { std::free(data); }
  std::string bytes(std::size_t n) const { return std::string(static_cast<const char*>(data), n); }
};

std::string sample_chunk(std::size_t n) {
  std::string text;
  for (std::size_t i = 0; text.size() < n; ++i) text += "row " + std::to_string(i % 977) + " of the chunk; ";
  text.resize(n);
  return text;
}

std::size_t run_filter(unsigned flags, std::vector<unsigned> cd_values, FilterBuffer& buffer, std::size_t nbytes) {
  return zstd_filter_class()->filter(flags, cd_values.size(), cd_values.data(), nbytes, &buffer.size, &buffer.data);
}

TEST(H5ZstdFilter, ClassDescribesRegisteredFilter32015) {
  const H5Z_class2_t* cls = zstd_filter_class();
  ASSERT_NE(cls, nullptr);
  EXPECT_EQ(cls->version, H5Z_CLASS_T_VERS);
  EXPECT_EQ(cls->id, 32015);
  EXPECT_EQ(kZstdFilterId, 32015);
  EXPECT_STREQ(cls->name, "zstd");
  EXPECT_TRUE(cls->encoder_present);
  EXPECT_TRUE(cls->decoder_present);
  EXPECT_NE(cls->filter, nullptr);
}

TEST(H5ZstdFilter, RoundTripsOneFrameWithContentSize) {
  const std::string chunk = sample_chunk(300000);
  FilterBuffer buffer(chunk);
  const std::size_t packed = run_filter(0, {3}, buffer, chunk.size());
  ASSERT_GT(packed, 0u);
  EXPECT_LT(packed, chunk.size() / 4);
  EXPECT_EQ(ZSTD_getFrameContentSize(buffer.data, packed), chunk.size());
  EXPECT_EQ(ZSTD_findFrameCompressedSize(buffer.data, packed), packed);  // exactly one frame

  const std::size_t unpacked = run_filter(H5Z_FLAG_REVERSE, {3}, buffer, packed);
  ASSERT_EQ(unpacked, chunk.size());
  EXPECT_EQ(buffer.bytes(unpacked), chunk);
}

TEST(H5ZstdFilter, LevelComesFromCdValuesAndDefaultsTo3) {
  const std::string chunk = sample_chunk(100000);
  auto reference = [&](int level) {
    std::string out(ZSTD_compressBound(chunk.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), chunk.data(), chunk.size(), level));
    return out;
  };
  FilterBuffer at19(chunk);
  const std::size_t n19 = run_filter(0, {19}, at19, chunk.size());
  EXPECT_EQ(at19.bytes(n19), reference(19));

  FilterBuffer at1(chunk);
  const std::size_t n1 = run_filter(0, {1}, at1, chunk.size());
  EXPECT_EQ(at1.bytes(n1), reference(1));

  FilterBuffer defaulted(chunk);
  const std::size_t n3 = run_filter(0, {}, defaulted, chunk.size());
  EXPECT_EQ(defaulted.bytes(n3), reference(3));
}

TEST(H5ZstdFilter, DecodesFramesWithoutContentSizeByStreaming) {
  const std::string chunk = sample_chunk(500000);
  // A frame whose header has no content size, as streaming writers produce.
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  std::string frame(ZSTD_compressBound(chunk.size()) + 64, '\0');
  ZSTD_inBuffer in{chunk.data(), chunk.size(), 0};
  ZSTD_outBuffer out{frame.data(), frame.size(), 0};
  while (ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end) != 0) {
  }
  ZSTD_freeCCtx(cctx);
  frame.resize(out.pos);
  ASSERT_EQ(ZSTD_getFrameContentSize(frame.data(), frame.size()), ZSTD_CONTENTSIZE_UNKNOWN);

  FilterBuffer buffer(frame);
  const std::size_t unpacked = run_filter(H5Z_FLAG_REVERSE, {}, buffer, frame.size());
  ASSERT_EQ(unpacked, chunk.size());
  EXPECT_EQ(buffer.bytes(unpacked), chunk);
}

TEST(H5ZstdFilter, CorruptOrTruncatedInputFailsWithZero) {
  FilterBuffer garbage(std::string(100, 'x'));
  EXPECT_EQ(run_filter(H5Z_FLAG_REVERSE, {}, garbage, 100), 0u);

  const std::string chunk = sample_chunk(50000);
  FilterBuffer buffer(chunk);
  const std::size_t packed = run_filter(0, {3}, buffer, chunk.size());
  ASSERT_GT(packed, 10u);
  FilterBuffer truncated(buffer.bytes(packed - 10));
  EXPECT_EQ(run_filter(H5Z_FLAG_REVERSE, {}, truncated, packed - 10), 0u);
}

TEST(H5ZstdFilter, RegistrationIsIdempotent) {
  ASSERT_NO_THROW(tdcone::hdf5::register_zstd_filter());
  ASSERT_NO_THROW(tdcone::hdf5::register_zstd_filter());
  EXPECT_GT(H5Zfilter_avail(kZstdFilterId), 0);
  unsigned config = 0;
  ASSERT_GE(H5Zget_filter_info(kZstdFilterId, &config), 0);
  EXPECT_TRUE(config & H5Z_FILTER_CONFIG_ENCODE_ENABLED);
  EXPECT_TRUE(config & H5Z_FILTER_CONFIG_DECODE_ENABLED);
}

}  // namespace
