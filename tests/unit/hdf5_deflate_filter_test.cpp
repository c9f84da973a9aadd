// The deflate filter (hdf5/deflate_filter.cpp): HDF5's deflate filter id
// runs it once registered, and it writes standard zlib streams, so files read
// back through HDF5 and with a plain zlib uncompress() of each raw chunk.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tdcone/hdf5/deflate_filter.hpp"
#include "temp_files.hpp"

namespace {

using tdcone::hdf5::deflate_filter_class;
using tdcone::hdf5::deflate_filter_counts;

// A buffer as HDF5 hands it to a filter.
struct FilterBuffer {
  void* data = nullptr;
  std::size_t size = 0;
  explicit FilterBuffer(const std::string& bytes) : data(H5allocate_memory(bytes.size(), false)), size(bytes.size()) {
    if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
  }
  ~FilterBuffer() { H5free_memory(data); }
  std::string bytes(std::size_t n) const { return std::string(static_cast<const char*>(data), n); }
};

std::size_t run_filter(unsigned flags, unsigned level, FilterBuffer& buffer, std::size_t nbytes) {
  return deflate_filter_class()->filter(flags, 1, &level, nbytes, &buffer.size, &buffer.data);
}

std::string sample_chunk(std::size_t n) {
  std::string bytes;
  for (std::size_t i = 0; bytes.size() < n; ++i) bytes += "row " + std::to_string(i * 7919 % 1009) + "; ";
  bytes.resize(n);
  return bytes;
}

std::string random_bytes(std::size_t n, std::uint64_t& state) {
  std::string bytes(n, '\0');
  for (char& c : bytes) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    c = static_cast<char>(state >> 56);
  }
  return bytes;
}

// zlib's own inflate of a stream whose inflated size is known.
std::string zlib_inflated(const void* stream, std::size_t stream_bytes, std::size_t size) {
  std::string out(size, '\0');
  uLongf out_size = size;
  EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(out.data()), &out_size, static_cast<const Bytef*>(stream), stream_bytes),
            Z_OK);
  out.resize(out_size);
  return out;
}

TEST(H5Deflate, ClassIsTheStandardDeflateFilter) {
  const H5Z_class2_t* cls = deflate_filter_class();
  EXPECT_EQ(cls->version, H5Z_CLASS_T_VERS);
  EXPECT_EQ(cls->id, H5Z_FILTER_DEFLATE);
  EXPECT_STREQ(cls->name, "deflate");
  EXPECT_TRUE(cls->encoder_present);
  EXPECT_TRUE(cls->decoder_present);
}

TEST(H5Deflate, EveryLevelWritesAStreamZlibInflatesAndTheFilterInflatesBack) {
  const std::string chunk = sample_chunk(200000);
  for (unsigned level : {1u, 4u, 6u, 9u}) {
    FilterBuffer buffer(chunk);
    const std::size_t packed = run_filter(0, level, buffer, chunk.size());
    ASSERT_GT(packed, 0u) << "level " << level;
    EXPECT_LT(packed, chunk.size() / 3) << "level " << level;
    EXPECT_EQ(zlib_inflated(buffer.data, packed, chunk.size()), chunk) << "level " << level;
    const std::size_t unpacked = run_filter(H5Z_FLAG_REVERSE, level, buffer, packed);
    ASSERT_EQ(unpacked, chunk.size()) << "level " << level;
    EXPECT_EQ(buffer.bytes(unpacked), chunk) << "level " << level;
  }
}

// A chunk of random bits fits (stored blocks), small or large, at level 1
// (igzip) and at the others (libdeflate).
TEST(H5Deflate, RandomBytesRoundTrip) {
  std::uint64_t state = 99;
  for (unsigned level : {1u, 4u}) {
    for (std::size_t n : {1u, 8u, 64u, 100u, 1000u, 70000u, 600000u}) {
      const std::string chunk = random_bytes(n, state);
      FilterBuffer buffer(chunk);
      const std::size_t packed = run_filter(0, level, buffer, n);
      ASSERT_GT(packed, 0u) << n << " bytes, level " << level;
      EXPECT_EQ(zlib_inflated(buffer.data, packed, n), chunk) << n << " bytes, level " << level;
      ASSERT_EQ(run_filter(H5Z_FLAG_REVERSE, level, buffer, packed), n) << n << " bytes, level " << level;
      EXPECT_EQ(buffer.bytes(n), chunk) << n << " bytes, level " << level;
    }
  }
}

// Inflating does not know the chunk's size: a thread that has inflated
// nothing yet grows its guess until a chunk of zeros (a thousand times
// smaller packed) fits.
TEST(H5Deflate, AChunkMuchLargerThanItsStreamInflatesOnAFreshThread) {
  const std::string chunk(4 << 20, '\0');
  FilterBuffer buffer(chunk);
  const std::size_t packed = run_filter(0, 1, buffer, chunk.size());
  ASSERT_GT(packed, 0u);
  EXPECT_LT(packed, chunk.size() / 100);
  std::size_t unpacked = 0;
  std::thread([&] { unpacked = run_filter(H5Z_FLAG_REVERSE, 1, buffer, packed); }).join();
  ASSERT_EQ(unpacked, chunk.size());
  EXPECT_EQ(buffer.bytes(unpacked), chunk);
}

TEST(H5Deflate, BadLevelsAndBadStreamsFail) {
  const std::string chunk = sample_chunk(5000);
  FilterBuffer bad_level(chunk);
  EXPECT_EQ(run_filter(0, 10, bad_level, chunk.size()), 0u);
  EXPECT_EQ(bad_level.bytes(chunk.size()), chunk);  // left as it was
  FilterBuffer not_a_stream(chunk);
  EXPECT_EQ(run_filter(H5Z_FLAG_REVERSE, 1, not_a_stream, chunk.size()), 0u);
  FilterBuffer cut(chunk);
  const std::size_t packed = run_filter(0, 1, cut, chunk.size());
  ASSERT_GT(packed, 8u);
  EXPECT_EQ(run_filter(H5Z_FLAG_REVERSE, 1, cut, packed - 4), 0u);  // its adler32 cut off
}

// Through HDF5: a shuffled, deflated dataset as the output files hold them.
TEST(H5Deflate, Hdf5WritesAndReadsThroughTheFilterAndTheChunksAreZlibStreams) {
  tdcone::hdf5::register_deflate_filter();
  tdcone::hdf5::register_deflate_filter();  // again: harmless
  const tdcone::test_support::TempDir dir("tdcone_deflate");
  const std::string path = dir.path("deflated.h5");
  constexpr hsize_t kRows = 100000, kChunkRows = 65536;
  std::vector<std::uint64_t> rows(kRows);
  for (hsize_t i = 0; i < kRows; ++i) rows[i] = i * i % 100003;

  const tdcone::hdf5::DeflateCounts before = deflate_filter_counts();
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t space = H5Screate_simple(1, &kRows, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  ASSERT_GE(H5Pset_chunk(dcpl, 1, &kChunkRows), 0);
  ASSERT_GE(H5Pset_shuffle(dcpl), 0);
  ASSERT_GE(H5Pset_deflate(dcpl, 1), 0);
  hid_t dset = H5Dcreate2(file, "rows", H5T_NATIVE_UINT64, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ASSERT_GE(dset, 0);
  ASSERT_GE(H5Dwrite(dset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), 0);
  H5Dclose(dset);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(file);
  const tdcone::hdf5::DeflateCounts written = deflate_filter_counts();
  EXPECT_EQ(written.compressed - before.compressed, 2u) << "both chunks compressed by our filter";

  file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  dset = H5Dopen2(file, "rows", H5P_DEFAULT);
  ASSERT_GE(dset, 0);
  const hid_t stored = H5Dget_create_plist(dset);
  unsigned flags = 0, config = 0, level = 0;
  std::size_t n_values = 1;
  EXPECT_EQ(H5Pget_filter2(stored, 1, &flags, &n_values, &level, 0, nullptr, &config), H5Z_FILTER_DEFLATE);
  EXPECT_EQ(level, 1u);
  H5Pclose(stored);
  std::vector<std::uint64_t> read(kRows);
  ASSERT_GE(H5Dread(dset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, read.data()), 0);
  EXPECT_EQ(read, rows);
  EXPECT_EQ(deflate_filter_counts().inflated - written.inflated, 2u) << "both chunks inflated by our filter";

  // Each raw chunk: a zlib stream of the shuffled rows (byte b of every row together).
  for (hsize_t first = 0; first < kRows; first += kChunkRows) {
    hsize_t stored_bytes = 0;
    ASSERT_GE(H5Dget_chunk_storage_size(dset, &first, &stored_bytes), 0);
    std::vector<unsigned char> raw(stored_bytes);
    std::uint32_t skipped = 0;
    ASSERT_GE(H5Dread_chunk(dset, H5P_DEFAULT, &first, &skipped, raw.data()), 0);
    EXPECT_EQ(skipped, 0u);
    EXPECT_EQ(raw[0], 0x78) << "a zlib header";
    const std::string shuffled = zlib_inflated(raw.data(), raw.size(), kChunkRows * sizeof(std::uint64_t));
    ASSERT_EQ(shuffled.size(), kChunkRows * sizeof(std::uint64_t));
    for (hsize_t i = first; i < std::min(first + kChunkRows, kRows); i += 997) {
      std::uint64_t row = 0;
      for (std::size_t b = 0; b < sizeof row; ++b)
        reinterpret_cast<unsigned char*>(&row)[b] = static_cast<unsigned char>(shuffled[b * kChunkRows + (i - first)]);
      ASSERT_EQ(row, rows[i]) << "row " << i;
    }
  }
  H5Dclose(dset);
  H5Fclose(file);
}

}  // namespace
