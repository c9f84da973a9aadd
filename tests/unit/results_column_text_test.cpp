// results::column_text over columns OutputFile wrote and Reader read back:
// what export writes of each type.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "h5_test_files.hpp"
#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/hdf5/reader.hpp"
#include "tdcone/results/column_text.hpp"

namespace {

using namespace tdcone::h5_test;
using tdcone::hdf5::Compression;
using tdcone::hdf5::OutputFile;
using tdcone::hdf5::Reader;
using tdcone::results::column_text;

using ColumnText = H5Files;

TEST_F(ColumnText, EveryColumnTypeAsText) {
  const std::string file = path("text.h5");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::uint64_t> u64 = {0, 1, 42, std::numeric_limits<std::uint64_t>::max(), 1ull << 53};
  const std::vector<double> f64 = {1.0 / 3.0, -0.0, nan, inf, -inf, 5e-324, 1e308};
  const std::vector<std::uint8_t> u8 = {0, 1, 2, 4, 7, 255};
  const std::vector<std::string> ids = {"a", "", "héllo wörld", "日本語のテキスト", "tab\tin", "z"};
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    out.create_group("/pairs");
    out.write_column("/pairs/zeta", std::span<const std::uint64_t>(u64), 0, u64.size());
    out.write_column("/pairs/alpha", std::span<const double>(f64), 0, f64.size());
    out.write_column("/pairs/flags", std::span<const std::uint8_t>(u8), 0, u8.size());
    out.write_column("/pairs/id", ids, 0, ids.size());
    out.commit();
  }
  const Reader in(file);
  const auto text = [&](const std::string& dataset) { return column_text(in.read_column(dataset)); };
  EXPECT_EQ(text("/pairs/zeta"), (std::vector<std::string>{"0", "1", "42", "18446744073709551615", "9007199254740992"}));
  // Shortest text that reads back as the same double.
  EXPECT_EQ(text("/pairs/alpha"),
            (std::vector<std::string>{"0.3333333333333333", "-0", "nan", "inf", "-inf", "5e-324", "1e+308"}));
  EXPECT_EQ(text("/pairs/flags"), (std::vector<std::string>{"0", "1", "2", "4", "7", "255"}));
  EXPECT_EQ(text("/pairs/id"), ids);
}

TEST_F(ColumnText, ZeroRowColumnsGiveNoText) {
  const std::string file = path("empty.h5");
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    out.create_group("/sweep");
    out.write_column("/sweep/threshold", std::span<const double>(), 0, 0);
    out.write_column("/sweep/root_word", std::vector<std::string>(), 0, 0);
    out.commit();
  }
  const Reader in(file);
  EXPECT_TRUE(column_text(in.read_column("/sweep/threshold")).empty());
  EXPECT_TRUE(column_text(in.read_column("/sweep/root_word")).empty());
}

TEST(ColumnTextTest, SignedIntegers) {
  tdcone::hdf5::Column column;
  column.kind = tdcone::hdf5::Column::Kind::signed_integer;
  column.signed_values = {-42, 0, std::numeric_limits<std::int64_t>::min()};
  EXPECT_EQ(column_text(column), (std::vector<std::string>{"-42", "0", "-9223372036854775808"}));
}

}  // namespace
