// The property objects of the output file (src/hdf5/h5properties), as found
// on disk: chunking, fill time and the filters asked for.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "h5_test_files.hpp"
#include "tdcone/hdf5/output_file.hpp"

namespace {

using namespace tdcone::h5_test;
using tdcone::hdf5::Compression;
using tdcone::hdf5::OutputFile;

class H5Properties : public H5Files, public ::testing::WithParamInterface<Compression> {};

TEST_P(H5Properties, FiltersChunksAndFillTimeAreTheOnesAskedFor) {
  const std::string file = path("properties.h5");
  const std::vector<std::uint64_t> u64 = {0, 1, 42, std::numeric_limits<std::uint64_t>::max(), 1ull << 53};
  const std::vector<double> reals = {0.25, 0.5, 0.25, 1.0 / 3, 0.25};
  {
    OutputFile out(file, false, MPI_COMM_WORLD, GetParam());
    out.create_group("/pairs");
    out.write_column("/pairs/zeta", std::span<const std::uint64_t>(u64), 0, u64.size());
    out.write_column("/pairs/real", std::span<const double>(reals), 0, reals.size());
    out.commit();
  }
  // Floating point is not shuffled: its repeated 8-byte values deflate whole.
  const DatasetLayout real = inspect(file, "/pairs/real");
  EXPECT_FALSE(real.has_shuffle);
  EXPECT_EQ(real.nfilters, GetParam() == Compression::none ? 0 : 1);
  EXPECT_EQ(real.has_deflate, GetParam() == Compression::deflate);
  EXPECT_EQ(real.has_zstd, GetParam() == Compression::zstd);
  // The filters on disk are the ones asked for.
  const DatasetLayout layout = inspect(file, "/pairs/zeta");
  EXPECT_EQ(layout.layout, H5D_CHUNKED);
  EXPECT_EQ(layout.chunk, u64.size());
  EXPECT_EQ(layout.fill_time, H5D_FILL_TIME_NEVER);
  switch (GetParam()) {
    case Compression::zstd:
      EXPECT_EQ(layout.nfilters, 2);
      EXPECT_TRUE(layout.has_shuffle);
      EXPECT_TRUE(layout.has_zstd);
      EXPECT_EQ(layout.zstd_level, 3u);
      EXPECT_FALSE(layout.has_deflate);
      break;
    case Compression::deflate:
      EXPECT_EQ(layout.nfilters, 2);
      EXPECT_TRUE(layout.has_shuffle);
      EXPECT_TRUE(layout.has_deflate);
      EXPECT_EQ(layout.deflate_level, 1u);
      EXPECT_FALSE(layout.has_zstd);
      break;
    case Compression::none:
      EXPECT_EQ(layout.nfilters, 0);
      break;
  }
}

INSTANTIATE_TEST_SUITE_P(H5, H5Properties, ::testing::Values(Compression::deflate, Compression::zstd, Compression::none),
                         compression_name);

}  // namespace
