// Collective writes with 1-4 ranks: "half-empty" layouts where some ranks
// write nothing and the others write uneven, non chunk-aligned row ranges,
// over several chunks, for every compression. Rank 0 reads everything back
// and every rank agrees on the verdict.
#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "shared_dir.hpp"
#include "world.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/mpi/guard.hpp"

namespace {

namespace fs = std::filesystem;

// A temporary file of `file`'s writer: `file` + ".partial-XXXXXX".
bool has_partial(const std::string& file) {
  const fs::path target(file);
  for (const auto& entry : fs::directory_iterator(target.parent_path()))
    if (entry.path().filename().string().starts_with(target.filename().string() + ".partial")) return true;
  return false;
}
using tdcone::hdf5::Compression;
using tdcone::hdf5::OutputFile;
using tdcone::hdf5::Reader;
using tdcone::test_support::SharedTempDir;

constexpr std::uint64_t kTotal = 200003;  // four chunks of 65536, the last partial

using tdcone::test_support::world_rank;
using tdcone::test_support::world_size;
using tdcone::test_support::all_agree;

struct Share {
  std::uint64_t offset = 0, count = 0;
};

enum class Layout { half_empty, uneven, last_rank_only, reversed };

/// Splits [0, kTotal) into one range per rank. Cut points are deliberately
/// not multiples of the chunk size; some ranks get nothing.
std::vector<Share> shares(Layout layout, int n) {
  std::vector<std::uint64_t> weight(n, 0);
  for (int r = 0; r < n; ++r) {
    switch (layout) {
      case Layout::half_empty:
        weight[r] = (r % 2 == 1 || n == 1) ? static_cast<std::uint64_t>(r + 1) : 0;
        break;
      case Layout::uneven:
        weight[r] = static_cast<std::uint64_t>((r + 1) * (r + 1));
        break;
      case Layout::last_rank_only:
        weight[r] = r == n - 1 ? 1 : 0;
        break;
      case Layout::reversed:
        weight[r] = static_cast<std::uint64_t>(r == 0 ? 1 : 3 + r);
        break;
    }
  }
  std::uint64_t sum = 0;
  for (auto w : weight) sum += w;
  // Ranges follow rank order, except `reversed`, where the last rank starts at 0.
  std::vector<int> order(n);
  for (int k = 0; k < n; ++k) order[k] = layout == Layout::reversed ? n - 1 - k : k;
  std::vector<Share> out(n);
  std::uint64_t given = 0;
  for (int r : order) {
    out[r].count = weight[r] * kTotal / sum;
    given += out[r].count;
  }
  for (int k = n - 1; k >= 0; --k) {  // the remainder goes to the last range with rows
    if (weight[order[k]] == 0) continue;
    out[order[k]].count += kTotal - given;
    break;
  }
  std::uint64_t offset = 0;
  for (int r : order) {
    out[r].offset = offset;
    offset += out[r].count;
  }
  return out;
}

std::uint64_t id_value(std::uint64_t i) { return i * 2654435761ull % 1000000007ull; }
double double_value(std::uint64_t i) { return i % 97 == 0 ? std::nan("") : static_cast<double>(i) / 7.0 - 1000.0; }
std::uint32_t u32_value(std::uint64_t i) { return static_cast<std::uint32_t>(i * 40503u); }
std::uint8_t u8_value(std::uint64_t i) { return static_cast<std::uint8_t>(i % 8); }
std::string string_value(std::uint64_t i) {
  // Widths vary from 1 to 9 bytes; every 1000th row is a multi-byte UTF-8 word.
  if (i % 1000 == 0) return "ü" + std::to_string(i % 7);
  return std::string(1 + i % 5, 'a' + static_cast<char>(i % 26)) + std::to_string(i % 1000);
}

bool same_double(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

std::string layout_name(Layout layout) {
  switch (layout) {
    case Layout::half_empty:
      return "half_empty";
    case Layout::uneven:
      return "uneven";
    case Layout::last_rank_only:
      return "last_rank_only";
    default:
      return "reversed";
  }
}

struct Case {
  Compression compression;
  Layout layout;
};

class H5ParallelWrite : public ::testing::TestWithParam<Case> {};

TEST_P(H5ParallelWrite, EveryRowReadsBackOnRankZero) {
  const Case c = GetParam();
  const int rank = world_rank(), size = world_size();
  const std::vector<Share> all = shares(c.layout, size);
  const Share mine = all[rank];
  {  // the layout itself covers [0, kTotal) exactly
    std::uint64_t covered = 0;
    for (const auto& s : all) covered += s.count;
    ASSERT_EQ(covered, kTotal);
  }

  std::vector<std::uint64_t> ids(mine.count);
  std::vector<double> doubles(mine.count);
  std::vector<std::uint32_t> u32(mine.count);
  std::vector<std::uint8_t> u8(mine.count);
  std::vector<std::string> strings(mine.count);
  for (std::uint64_t k = 0; k < mine.count; ++k) {
    const std::uint64_t i = mine.offset + k;
    ids[k] = id_value(i);
    doubles[k] = double_value(i);
    u32[k] = u32_value(i);
    u8[k] = u8_value(i);
    strings[k] = string_value(i);
  }

  const SharedTempDir scratch("h5par_" + layout_name(c.layout) + std::to_string(static_cast<int>(c.compression)));
  const std::string file = (scratch.path() / "out.h5").string();
  bool wrote = true;
  std::string error;
  try {
    OutputFile out(file, false, MPI_COMM_WORLD, c.compression);
    out.set_attribute("/", "n_ranks", static_cast<std::uint64_t>(size));
    out.set_attribute("/", "command", std::string("parallel test"));
    const std::uint64_t sizes[3] = {7, 0, std::numeric_limits<std::uint64_t>::max()};
    out.set_attribute("/", "input_sizes", std::span<const std::uint64_t>(sizes));
    out.set_attribute("/", "empty", std::string());
    out.create_group("/pairs");
    out.set_attribute("/pairs", "offset_sum", std::int64_t{-7});
    out.write_column("/pairs/pair_id", std::span<const std::uint64_t>(ids), mine.offset, kTotal);
    out.write_column("/pairs/tdcone", std::span<const double>(doubles), mine.offset, kTotal);
    out.write_column("/pairs/src_len", std::span<const std::uint32_t>(u32), mine.offset, kTotal);
    out.write_column("/pairs/flags", std::span<const std::uint8_t>(u8), mine.offset, kTotal);
    out.write_column("/pairs/id", strings, mine.offset, kTotal);
    out.create_group("/shards");  // a table nobody has rows for
    out.write_column("/shards/n_pairs", std::span<const std::uint64_t>(), 0, 0);
    out.write_column("/shards/name", std::vector<std::string>(), 0, 0);
    out.commit();
  } catch (const std::exception& e) {
    wrote = false;
    error = e.what();
  }
  ASSERT_TRUE(all_agree(wrote)) << "rank " << rank << ": " << error;

  bool read_ok = true;
  if (rank == 0) {
    EXPECT_FALSE(has_partial(file));
    try {
      const Reader in(file);
      EXPECT_EQ(in.attribute_uint("/", "n_ranks"), static_cast<std::uint64_t>(size));
      EXPECT_EQ(in.attribute_string("/", "command"), "parallel test");
      EXPECT_EQ(in.attribute_type("/", "command"), "string (variable-length, UTF-8)");
      EXPECT_EQ(in.attribute_string("/", "empty"), "");
      EXPECT_EQ(in.attribute_uints("/", "input_sizes"),
                (std::vector<std::uint64_t>{7, 0, std::numeric_limits<std::uint64_t>::max()}));
      EXPECT_EQ(in.attribute_text("/", "input_sizes"), "[7, 0, 18446744073709551615]");
      EXPECT_EQ(in.attribute_text("/pairs", "offset_sum"), "-7");
      EXPECT_EQ(in.datasets("/pairs"), (std::vector<std::string>{"pair_id", "tdcone", "src_len", "flags", "id"}));
      const auto r_ids = in.read_uint("/pairs/pair_id");
      const auto r_doubles = in.read_double("/pairs/tdcone");
      const auto r_u32 = in.read_uint("/pairs/src_len");
      const auto r_u8 = in.read_uint("/pairs/flags");
      const auto r_strings = in.read_strings("/pairs/id");
      EXPECT_EQ(r_ids.size(), kTotal);
      EXPECT_EQ(r_doubles.size(), kTotal);
      EXPECT_EQ(r_u32.size(), kTotal);
      EXPECT_EQ(r_u8.size(), kTotal);
      EXPECT_EQ(r_strings.size(), kTotal);
      std::uint64_t wrong = 0, first_wrong = kTotal;
      for (std::uint64_t i = 0; i < kTotal && r_ids.size() == kTotal && r_doubles.size() == kTotal &&
                                r_u32.size() == kTotal && r_u8.size() == kTotal && r_strings.size() == kTotal;
           ++i) {
        const bool ok = r_ids[i] == id_value(i) && same_double(r_doubles[i], double_value(i)) &&
                        r_u32[i] == u32_value(i) && r_u8[i] == u8_value(i) && r_strings[i] == string_value(i);
        if (!ok && wrong++ == 0) first_wrong = i;
      }
      EXPECT_EQ(wrong, 0u) << "first wrong row " << first_wrong;
      EXPECT_TRUE(in.read_uint("/shards/n_pairs").empty());
      EXPECT_TRUE(in.read_strings("/shards/name").empty());

      // The string width is the longest row of any rank.
      const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      const hid_t d = H5Dopen2(f, "/pairs/id", H5P_DEFAULT);
      const hid_t t = H5Dget_type(d);
      std::size_t longest = 0;
      for (std::uint64_t i = 0; i < kTotal; ++i) longest = std::max(longest, string_value(i).size());
      EXPECT_EQ(H5Tget_size(t), longest);
      const hid_t dcpl = H5Dget_create_plist(d);
      unsigned flags = 0, config = 0, values[2] = {};
      std::size_t n = 2;
      const bool has_zstd = H5Pget_filter_by_id2(dcpl, 32015, &flags, &n, values, 0, nullptr, &config) >= 0;
      EXPECT_EQ(has_zstd, c.compression == Compression::zstd);
      H5Eclear2(H5E_DEFAULT);
      H5Pclose(dcpl);
      H5Tclose(t);
      H5Dclose(d);
      H5Fclose(f);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
    read_ok = !::testing::Test::HasFailure();
  }
  int verdict = read_ok ? 1 : 0;
  MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(verdict, 1) << "rank 0 found wrong data";
}

INSTANTIATE_TEST_SUITE_P(
    H5, H5ParallelWrite,
    ::testing::Values(Case{Compression::deflate, Layout::half_empty}, Case{Compression::zstd, Layout::half_empty},
                      Case{Compression::none, Layout::half_empty}, Case{Compression::deflate, Layout::uneven},
                      Case{Compression::zstd, Layout::uneven}, Case{Compression::none, Layout::uneven},
                      Case{Compression::zstd, Layout::last_rank_only}, Case{Compression::deflate, Layout::reversed},
                      Case{Compression::zstd, Layout::reversed}),
    [](const auto& info) {
      const char* compression = info.param.compression == Compression::deflate ? "deflate"
                                : info.param.compression == Compression::zstd  ? "zstd"
                                                                               : "none";
      return std::string(compression) + "_" + layout_name(info.param.layout);
    });

TEST(H5ParallelLifecycle, UncommittedFileIsRemovedAndCommitIsAgreed) {
  const SharedTempDir scratch("h5par_lifecycle");
  const std::string file = (scratch.path() / "out.h5").string();
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    const std::vector<double> one = {1.0};
    out.write_column("/x", std::span<const double>(world_rank() == 0 ? one : std::vector<double>{}), 0, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  bool clean = !has_partial(file) && !fs::exists(file);
  EXPECT_TRUE(all_agree(clean));

  // A file that appears before commit: every rank must see the commit fail.
  bool threw = false;
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::none);
    if (world_rank() == 0) std::ofstream(file) << "someone else";
    MPI_Barrier(MPI_COMM_WORLD);
    try {
      out.commit();
    } catch (const tdcone::UsageError&) {  // rank 0, which found it
      threw = true;
    } catch (const tdcone::mpi::CollectiveError& e) {  // the others, with rank 0's status
      threw = e.exit_status == 2;
    }
  }
  EXPECT_TRUE(threw);
  EXPECT_TRUE(all_agree(threw));
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_FALSE(has_partial(file));
}

}  // namespace
