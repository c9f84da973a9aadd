// The rows of an export written (exporting/rows.hpp) from a table made by
// hand: the header and the chosen rows in the order given, each value's
// text in TSV and in JSON lines, zstd when asked, and a missing column
// named with the option that asked for it.
#include "tdcone/exporting/rows.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <zstd.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::exporting {
namespace {

hdf5::Column unsigned_column(std::vector<std::uint64_t> values) {
  hdf5::Column c;
  c.kind = hdf5::Column::Kind::unsigned_integer;
  c.unsigned_values = std::move(values);
  return c;
}
hdf5::Column real_column(std::vector<double> values) {
  hdf5::Column c;
  c.kind = hdf5::Column::Kind::real;
  c.real_values = std::move(values);
  return c;
}
hdf5::Column text_column(std::vector<std::string> values) {
  hdf5::Column c;
  c.kind = hdf5::Column::Kind::text;
  c.text_values = std::move(values);
  return c;
}

class Rows : public ::testing::Test {
 protected:
  void SetUp() override {
    // write_rows reads the result only to join input text: an empty result does.
    hdf5::OutputFile file(dir_.path("r.h5"), true, MPI_COMM_SELF, hdf5::Compression::none);
    file.commit();
    table_.group = "/shards";
    table_.names = {"shard", "tdcone", "file"};
    table_.columns = {unsigned_column({0, 1, 2}), real_column({0.1, std::numeric_limits<double>::quiet_NaN(), 1e-5}),
                      text_column({"a.tsv", "tab\there", "quote\"d"})};
  }
  std::string written(const ExportConfig& options, std::vector<std::size_t> rows, bool zstd = false) {
    const hdf5::Reader reader(dir_.path("r.h5"));
    std::ostringstream out;
    write_rows(options, reader, table_, std::move(rows), out, "standard output", zstd, false);
    return out.str();
  }

  test_support::TempDir dir_{"tdcone_rows_test"};
  Table table_;
};

TEST_F(Rows, TsvWritesTheHeaderAndTheRowsInTheOrderGiven) {
  EXPECT_EQ(written(ExportConfig{}, {2, 0}),
            "shard\ttdcone\tfile\n"
            "2\t1e-05\tquote\"d\n"
            "0\t0.1\ta.tsv\n");
}

TEST_F(Rows, TsvCellsHaveNoTabsAndNaNIsWrittenNan) {
  EXPECT_EQ(written(ExportConfig{}, {1}), "shard\ttdcone\tfile\n1\tnan\ttab here\n");
}

TEST_F(Rows, JsonLinesQuoteTextAndWriteNaNAsNull) {
  ExportConfig options;
  options.to = ExportFormat::jsonl;
  EXPECT_EQ(written(options, {1, 2}),
            "{\"shard\":1,\"tdcone\":null,\"file\":\"tab\\there\"}\n"
            "{\"shard\":2,\"tdcone\":1e-05,\"file\":\"quote\\\"d\"}\n");
}

TEST_F(Rows, NoRowsLeaveTheHeaderOnly) { EXPECT_EQ(written(ExportConfig{}, {}), "shard\ttdcone\tfile\n"); }

TEST_F(Rows, ZstdCompressesTheSameText) {
  const std::string plain = written(ExportConfig{}, {0, 1, 2});
  const std::string packed = written(ExportConfig{}, {0, 1, 2}, true);
  ASSERT_GE(packed.size(), 4u);
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x28);  // the zstd magic number 0xFD2FB528, little-endian
  EXPECT_EQ(static_cast<unsigned char>(packed[3]), 0xFD);
  std::string unpacked(plain.size() + 64, '\0');
  // A frame without its content size: stream it out.
  ZSTD_DStream* stream = ZSTD_createDStream();
  ZSTD_inBuffer in{packed.data(), packed.size(), 0};
  ZSTD_outBuffer out{unpacked.data(), unpacked.size(), 0};
  while (in.pos < in.size) {
    const std::size_t r = ZSTD_decompressStream(stream, &out, &in);
    ASSERT_FALSE(ZSTD_isError(r)) << ZSTD_getErrorName(r);
    if (r == 0 && in.pos == in.size) break;
  }
  ZSTD_freeDStream(stream);
  unpacked.resize(out.pos);
  EXPECT_EQ(unpacked, plain);
}

TEST_F(Rows, AMissingColumnNamesTheOptionTheColumnAndTheColumnsThereAre) {
  const std::string message = test_support::usage_error([&] { table_.column("n_pairs", Option::sort_by); });
  EXPECT_CONTAINS(message, "--sort-by");
  EXPECT_CONTAINS(message, "n_pairs");
  EXPECT_CONTAINS(message, "shard, tdcone, file");
  EXPECT_EQ(table_.column("file", Option::sort_by), 2u);
  EXPECT_EQ(table_.rows(), 3u);
}

}  // namespace
}  // namespace tdcone::exporting
