// Reader over files OutputFile wrote, in one process: every column and
// attribute type with every compression, several chunks, empty datasets,
// string widths and types.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "h5_test_files.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/hdf5/reader.hpp"

namespace {

using namespace tdcone::h5_test;
using tdcone::IoError;
using tdcone::UsageError;
using tdcone::hdf5::check_output_target;
using tdcone::hdf5::Compression;
using tdcone::hdf5::OutputFile;
using tdcone::hdf5::Reader;

class H5RoundTrip : public H5Files, public ::testing::WithParamInterface<Compression> {};

TEST_P(H5RoundTrip, EveryColumnAndAttributeType) {
  const std::string file = path("round.h5");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::uint64_t> u64 = {0, 1, 42, std::numeric_limits<std::uint64_t>::max(), 1ull << 53};
  const std::vector<double> f64 = {1.0 / 3.0, -0.0, nan, inf, -inf, 5e-324, 1e308};
  const std::vector<std::uint32_t> u32 = {0, 7, std::numeric_limits<std::uint32_t>::max()};
  const std::vector<std::uint8_t> u8 = {0, 1, 2, 4, 7, 255};
  const std::vector<std::string> ids = {"a", "", "héllo wörld", "日本語のテキスト", "tab\tin", "z"};
  {
    OutputFile out(file, false, MPI_COMM_WORLD, GetParam());
    out.set_attribute("/", "tdcone_version", std::string("0.1.0"));
    out.set_attribute("/", "empty", std::string());
    out.set_attribute("/", "utf8", std::string("Größe → 大"));
    out.set_attribute("/", "n_ranks", std::uint64_t{1});
    out.set_attribute("/", "big", std::numeric_limits<std::uint64_t>::max());
    out.set_attribute("/", "signed", std::int64_t{-42});
    out.set_attribute("/", "pi", 3.141592653589793);
    out.set_attribute("/", "not_a_number", nan);
    out.set_attribute("/", "pi", 2.718281828459045);  // replaced, not an error
    out.create_group("/pairs");
    out.set_attribute("/pairs", "note", std::string("group attribute"));
    // Creation order differs from name order on purpose.
    out.write_column("/pairs/zeta", std::span<const std::uint64_t>(u64), 0, u64.size());
    out.write_column("/pairs/alpha", std::span<const double>(f64), 0, f64.size());
    out.write_column("/pairs/mid32", std::span<const std::uint32_t>(u32), 0, u32.size());
    out.write_column("/pairs/flags", std::span<const std::uint8_t>(u8), 0, u8.size());
    out.write_column("/pairs/id", ids, 0, ids.size());
    out.commit();
  }
  ASSERT_TRUE(fs::exists(file));
  EXPECT_FALSE(has_partial(file));

  const Reader in(file);
  EXPECT_TRUE(in.exists("/"));
  EXPECT_TRUE(in.exists("/pairs"));
  EXPECT_TRUE(in.exists("/pairs/zeta"));
  EXPECT_TRUE(in.exists("pairs/zeta"));
  EXPECT_FALSE(in.exists("/pairs/nothing"));
  EXPECT_FALSE(in.exists("/nothing/zeta"));
  EXPECT_EQ(in.datasets("/pairs"), (std::vector<std::string>{"zeta", "alpha", "mid32", "flags", "id"}));
  EXPECT_TRUE(in.datasets("/").empty());  // groups are not datasets
  EXPECT_EQ(in.attributes("/"), (std::vector<std::string>{"big", "empty", "n_ranks", "not_a_number", "pi", "signed",
                                                          "tdcone_version", "utf8"}));
  EXPECT_EQ(in.attributes("/pairs"), std::vector<std::string>{"note"});

  EXPECT_EQ(in.attribute_string("/", "tdcone_version"), "0.1.0");
  EXPECT_EQ(in.attribute_string("/", "empty"), "");
  EXPECT_EQ(in.attribute_string("/", "utf8"), "Größe → 大");
  EXPECT_EQ(in.attribute_string("/pairs", "note"), "group attribute");
  EXPECT_EQ(in.attribute_uint("/", "n_ranks"), 1u);
  EXPECT_EQ(in.attribute_uint("/", "big"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(in.attribute_double("/", "pi"), 2.718281828459045);
  EXPECT_TRUE(std::isnan(in.attribute_double("/", "not_a_number")));
  EXPECT_EQ(in.attribute_double("/", "n_ranks"), 1.0);      // integers read as doubles too
  EXPECT_THROW(in.attribute_uint("/", "signed"), IoError);  // negative
  EXPECT_THROW(in.attribute_uint("/", "pi"), IoError);
  EXPECT_THROW(in.attribute_string("/", "pi"), IoError);
  EXPECT_THROW(in.attribute_double("/", "utf8"), IoError);

  EXPECT_EQ(in.attribute_text("/", "signed"), "-42");
  EXPECT_EQ(in.attribute_text("/", "big"), "18446744073709551615");
  EXPECT_EQ(in.attribute_text("/", "pi"), "2.718281828459045");
  EXPECT_EQ(in.attribute_text("/", "not_a_number"), "nan");
  EXPECT_EQ(in.attribute_text("/", "utf8"), "Größe → 大");

  EXPECT_EQ(in.read_uint("/pairs/zeta"), u64);
  EXPECT_EQ(in.read_uint("/pairs/mid32"), (std::vector<std::uint64_t>(u32.begin(), u32.end())));
  EXPECT_EQ(in.read_uint("/pairs/flags"), (std::vector<std::uint64_t>(u8.begin(), u8.end())));
  const auto doubles = in.read_double("/pairs/alpha");
  ASSERT_EQ(doubles.size(), f64.size());
  for (std::size_t i = 0; i < f64.size(); ++i) {
    if (std::isnan(f64[i])) {
      EXPECT_TRUE(std::isnan(doubles[i]));
    } else {
      EXPECT_EQ(doubles[i], f64[i]) << i;
      EXPECT_EQ(std::signbit(doubles[i]), std::signbit(f64[i])) << i;
    }
  }
  EXPECT_EQ(in.read_strings("/pairs/id"), ids);

  EXPECT_THROW(in.read_uint("/pairs/alpha"), IoError);
  EXPECT_THROW(in.read_uint("/pairs/id"), IoError);
  EXPECT_THROW(in.read_strings("/pairs/zeta"), IoError);
  EXPECT_THROW(in.read_double("/pairs/id"), IoError);

}

TEST_P(H5RoundTrip, SeveralChunksCompressAndReadBack) {
  const std::string file = path("chunks.h5");
  const std::size_t n = 150001;  // three chunks, the last one partial
  std::vector<std::uint64_t> ids(n);
  std::vector<double> values(n);
  std::vector<std::string> words(n);
  for (std::size_t i = 0; i < n; ++i) {
    ids[i] = i * 3;
    values[i] = static_cast<double>(i % 1000) / 8.0;
    words[i] = std::to_string(i % 5000).insert(0, 1, 'w');
  }
  {
    OutputFile out(file, false, MPI_COMM_WORLD, GetParam());
    out.write_column("/zids", std::span<const std::uint64_t>(ids), 0, n);
    out.write_column("/values", std::span<const double>(values), 0, n);
    out.write_column("/words", words, 0, n);
    out.commit();
  }
  const Reader in(file);
  EXPECT_EQ(in.read_uint("/zids"), ids);
  EXPECT_EQ(in.read_double("/values"), values);
  // A rank's rows only, across a chunk boundary; none past the end.
  EXPECT_EQ(in.read_double("/values", 65530, 20), std::vector<double>(values.begin() + 65530, values.begin() + 65550));
  EXPECT_TRUE(in.read_double("/values", n, 0).empty());
  EXPECT_THROW(in.read_double("/values", n - 5, 6), IoError);
  EXPECT_EQ(in.read_strings("/words"), words);
  EXPECT_EQ(in.datasets("/"), (std::vector<std::string>{"zids", "values", "words"}));

  const DatasetLayout layout = inspect(file, "/zids");
  EXPECT_EQ(layout.chunk, 65536u);
  if (GetParam() == Compression::none)
    EXPECT_GE(layout.storage, n * sizeof(std::uint64_t));
  else
    EXPECT_LT(layout.storage, n * sizeof(std::uint64_t) / 3);  // really compressed
}

TEST_P(H5RoundTrip, ZeroRowDatasetsAreCreatedAndReadable) {
  const std::string file = path("empty.h5");
  {
    OutputFile out(file, false, MPI_COMM_WORLD, GetParam());
    out.create_group("/sweep");
    out.write_column("/sweep/threshold", std::span<const double>(), 0, 0);
    out.write_column("/sweep/n_pairs", std::span<const std::uint64_t>(), 0, 0);
    out.write_column("/sweep/len", std::span<const std::uint32_t>(), 0, 0);
    out.write_column("/sweep/flags", std::span<const std::uint8_t>(), 0, 0);
    out.write_column("/sweep/root_word", std::vector<std::string>(), 0, 0);
    out.commit();
  }
  const Reader in(file);
  EXPECT_EQ(in.datasets("/sweep"), (std::vector<std::string>{"threshold", "n_pairs", "len", "flags", "root_word"}));
  EXPECT_TRUE(in.read_double("/sweep/threshold").empty());
  EXPECT_TRUE(in.read_uint("/sweep/n_pairs").empty());
  EXPECT_TRUE(in.read_uint("/sweep/len").empty());
  EXPECT_TRUE(in.read_uint("/sweep/flags").empty());
  EXPECT_TRUE(in.read_strings("/sweep/root_word").empty());
  EXPECT_EQ(inspect(file, "/sweep/root_word").type_size, 1u);  // width at least 1
}

INSTANTIATE_TEST_SUITE_P(H5, H5RoundTrip, ::testing::Values(Compression::deflate, Compression::zstd, Compression::none),
                         compression_name);

// ---------------------------------------------------------------------------

using H5Strings = H5Files;

TEST_F(H5Strings, ColumnWidthIsTheLongestRowNullPaddedUtf8AttributesVariableLength) {
  const std::string file = path("strings.h5");
  const std::vector<std::string> narrow = {"ab", "c", ""};
  const std::vector<std::string> wide = {"x", "ünïcödé – 漢字かな", "a fairly long ascii row here"};
  const std::vector<std::string> blank = {"", "", ""};
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    out.write_column("/narrow", narrow, 0, narrow.size());
    out.write_column("/wide", wide, 0, wide.size());
    out.write_column("/blank", blank, 0, blank.size());
    out.set_attribute("/", "label", std::string("ünï"));
    out.commit();
  }
  const DatasetLayout n = inspect(file, "/narrow"), w = inspect(file, "/wide"), b = inspect(file, "/blank");
  EXPECT_EQ(n.type_size, 2u);
  EXPECT_EQ(w.type_size, std::string("ünïcödé – 漢字かな").size());
  EXPECT_EQ(b.type_size, 1u);
  EXPECT_EQ(w.strpad, H5T_STR_NULLPAD);
  EXPECT_EQ(w.cset, H5T_CSET_UTF8);

  const Reader in(file);
  EXPECT_EQ(in.read_strings("/narrow"), narrow);
  EXPECT_EQ(in.read_strings("/wide"), wide);
  EXPECT_EQ(in.read_strings("/blank"), blank);

  const AttributeType label = inspect_attribute(file, "/", "label");
  EXPECT_EQ(label.cls, H5T_STRING);
  EXPECT_TRUE(label.variable);  // variable length: h5py reads it as str
  EXPECT_EQ(in.attribute_string("/", "label"), "ünï");
  EXPECT_EQ(in.attribute_type("/", "label"), "string (variable-length, UTF-8)");
  EXPECT_EQ(in.dataset_type("/wide"), "string (fixed 28 bytes, UTF-8)");
  EXPECT_EQ(label.cset, H5T_CSET_UTF8);
  EXPECT_EQ(label.space, H5S_SCALAR);
  EXPECT_EQ(inspect_attribute(file, "/", "label").space, H5S_SCALAR);
}

}  // namespace
