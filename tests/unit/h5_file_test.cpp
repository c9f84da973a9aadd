// OutputFile and Reader in one process: every column and attribute type with
// every compression, empty datasets, string widths, the file lifecycle and
// the error messages.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/hdf5/zstd_filter.hpp"

namespace {

namespace fs = std::filesystem;

// A temporary file of `file`'s writer: `file` + ".partial-XXXXXX".
bool has_partial(const std::string& file) {
  const fs::path target(file);
  for (const auto& entry : fs::directory_iterator(target.parent_path()))
    if (entry.path().filename().string().starts_with(target.filename().string() + ".partial")) return true;
  return false;
}
using tdcone::IoError;
using tdcone::UsageError;
using tdcone::h5::check_output_target;
using tdcone::h5::Compression;
using tdcone::h5::OutputFile;
using tdcone::h5::Reader;

class H5Files : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(test->test_suite_name()) + "_" + test->name();
    for (char& c : name)
      if (c == '/') c = '_';
    dir_ = fs::temp_directory_path() / ("tdcone_h5_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

// Raw HDF5 look at a dataset's creation properties and type.
struct DatasetLayout {
  int nfilters = -1;
  bool has_zstd = false, has_deflate = false, has_shuffle = false;
  unsigned zstd_level = 0, deflate_level = 0;
  hsize_t chunk = 0;
  H5D_layout_t layout = H5D_LAYOUT_ERROR;
  H5D_fill_time_t fill_time = H5D_FILL_TIME_ERROR;
  std::size_t type_size = 0;
  H5T_str_t strpad = H5T_STR_ERROR;
  H5T_cset_t cset = H5T_CSET_ERROR;
  hsize_t storage = 0;
};

DatasetLayout inspect(const std::string& file, const std::string& dataset) {
  tdcone::h5::register_zstd_filter();
  DatasetLayout out;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0);
  const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  EXPECT_GE(d, 0);
  const hid_t dcpl = H5Dget_create_plist(d);
  out.nfilters = H5Pget_nfilters(dcpl);
  unsigned flags = 0, config = 0;
  std::size_t n = 1;
  unsigned values[4] = {};
  out.has_zstd = H5Pget_filter_by_id2(dcpl, 32015, &flags, &n, values, 0, nullptr, &config) >= 0;
  if (out.has_zstd && n > 0) out.zstd_level = values[0];
  n = 1;
  out.has_deflate = H5Pget_filter_by_id2(dcpl, H5Z_FILTER_DEFLATE, &flags, &n, values, 0, nullptr, &config) >= 0;
  if (out.has_deflate && n > 0) out.deflate_level = values[0];
  n = 0;
  out.has_shuffle = H5Pget_filter_by_id2(dcpl, H5Z_FILTER_SHUFFLE, &flags, &n, nullptr, 0, nullptr, &config) >= 0;
  out.layout = H5Pget_layout(dcpl);
  if (out.layout == H5D_CHUNKED) H5Pget_chunk(dcpl, 1, &out.chunk);
  H5Pget_fill_time(dcpl, &out.fill_time);
  const hid_t type = H5Dget_type(d);
  out.type_size = H5Tget_size(type);
  if (H5Tget_class(type) == H5T_STRING) {
    out.strpad = H5Tget_strpad(type);
    out.cset = H5Tget_cset(type);
  }
  out.storage = H5Dget_storage_size(d);
  H5Tclose(type);
  H5Pclose(dcpl);
  H5Dclose(d);
  H5Fclose(f);
  H5Eclear2(H5E_DEFAULT);
  return out;
}

struct AttributeType {
  H5T_class_t cls = H5T_NO_CLASS;
  std::size_t size = 0;
  H5T_cset_t cset = H5T_CSET_ERROR;
  bool variable = true;
  H5S_class_t space = H5S_NO_CLASS;
};

AttributeType inspect_attribute(const std::string& file, const std::string& object, const std::string& name) {
  AttributeType out;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t a = H5Aopen_by_name(f, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(a, 0);
  const hid_t type = H5Aget_type(a), space = H5Aget_space(a);
  out.cls = H5Tget_class(type);
  out.size = H5Tget_size(type);
  if (out.cls == H5T_STRING) {
    out.cset = H5Tget_cset(type);
    out.variable = H5Tis_variable_str(type) > 0;
  }
  out.space = H5Sget_simple_extent_type(space);
  H5Sclose(space);
  H5Tclose(type);
  H5Aclose(a);
  H5Fclose(f);
  return out;
}

// ---------------------------------------------------------------------------

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

  EXPECT_EQ(in.read_text("/pairs/zeta"),
            (std::vector<std::string>{"0", "1", "42", "18446744073709551615", "9007199254740992"}));
  // Shortest text that reads back as the same double.
  EXPECT_EQ(in.read_text("/pairs/alpha"),
            (std::vector<std::string>{"0.3333333333333333", "-0", "nan", "inf", "-inf", "5e-324", "1e+308"}));
  EXPECT_EQ(in.read_text("/pairs/flags"), (std::vector<std::string>{"0", "1", "2", "4", "7", "255"}));
  EXPECT_EQ(in.read_text("/pairs/id"), ids);

  EXPECT_THROW(in.read_uint("/pairs/alpha"), IoError);
  EXPECT_THROW(in.read_uint("/pairs/id"), IoError);
  EXPECT_THROW(in.read_strings("/pairs/zeta"), IoError);
  EXPECT_THROW(in.read_double("/pairs/id"), IoError);

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
      EXPECT_EQ(layout.deflate_level, 4u);
      EXPECT_FALSE(layout.has_zstd);
      break;
    case Compression::none:
      EXPECT_EQ(layout.nfilters, 0);
      break;
  }
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
  EXPECT_TRUE(in.read_text("/sweep/threshold").empty());
  EXPECT_TRUE(in.read_text("/sweep/root_word").empty());
  EXPECT_EQ(inspect(file, "/sweep/root_word").type_size, 1u);  // width at least 1
}

INSTANTIATE_TEST_SUITE_P(H5, H5RoundTrip, ::testing::Values(Compression::deflate, Compression::zstd, Compression::none),
                         [](const auto& info) {
                           switch (info.param) {
                             case Compression::deflate:
                               return std::string("deflate");
                             case Compression::zstd:
                               return std::string("zstd");
                             default:
                               return std::string("none");
                           }
                         });

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

// ---------------------------------------------------------------------------

using H5OutputTarget = H5Files;

TEST_F(H5OutputTarget, NewFileInExistingDirectoryIsFine) {
  EXPECT_NO_THROW(check_output_target(path("new.h5"), false));
  EXPECT_NO_THROW(check_output_target(path("new.h5"), true));
}

TEST_F(H5OutputTarget, ExistingFileNeedsForce) {
  const std::string file = path("old.h5");
  std::ofstream(file) << "x";
  try {
    check_output_target(file, false);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "output file exists: " + file + " (use --force to overwrite)");
  }
  EXPECT_NO_THROW(check_output_target(file, true));
}

TEST_F(H5OutputTarget, MissingOrNonDirectoryParentIsRejected) {
  EXPECT_THROW(check_output_target(path("no/such/dir/out.h5"), false), UsageError);
  EXPECT_THROW(check_output_target(path("no/such/dir/out.h5"), true), UsageError);
  std::ofstream(path("plain")) << "x";
  EXPECT_THROW(check_output_target(path("plain/out.h5"), true), UsageError);
  fs::create_directory(path("adir"));
  EXPECT_THROW(check_output_target(path("adir"), true), UsageError);  // a directory is not an output file
}

TEST_F(H5OutputTarget, ForceReplacesRegularFilesOnly) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_THROW(check_output_target(path("fifo"), true), UsageError);
  EXPECT_THROW(check_output_target("/dev/null", true), UsageError);  // a device node stays one
  fs::create_symlink("/dev/null", path("to-device"));
  EXPECT_THROW(check_output_target(path("to-device"), true), UsageError);
  try {
    check_output_target("/dev/full", true);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "output file is not a regular file: /dev/full (--force replaces regular files only)");
  }
}

TEST_F(H5OutputTarget, UnwritableDirectoryIsRejected) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes anywhere";
  fs::create_directory(path("ro"));
  fs::permissions(path("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_THROW(check_output_target(path("ro/out.h5"), false), UsageError);
  fs::permissions(path("ro"), fs::perms::owner_all);
}

// ---------------------------------------------------------------------------

using H5Lifecycle = H5Files;

TEST_F(H5Lifecycle, WritesToPartialAndCommitRenames) {
  const std::string file = path("out.h5");
  OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
  out.set_attribute("/", "command", std::string("score"));
  EXPECT_TRUE(has_partial(file));
  EXPECT_FALSE(fs::exists(file));
  out.commit();
  EXPECT_TRUE(fs::exists(file));
  EXPECT_FALSE(has_partial(file));
  EXPECT_NO_THROW(out.commit());  // a second commit does nothing
  EXPECT_THROW(out.create_group("/late"), IoError);
  EXPECT_EQ(Reader(file).attribute_string("/", "command"), "score");
}

TEST_F(H5Lifecycle, DestroyedWithoutCommitLeavesNothing) {
  const std::string file = path("out.h5");
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::zstd);
    const std::vector<double> values = {1, 2, 3};
    out.write_column("/values", std::span<const double>(values), 0, 3);
    EXPECT_TRUE(has_partial(file));
  }
  EXPECT_FALSE(has_partial(file));
  EXPECT_FALSE(fs::exists(file));
}

TEST_F(H5Lifecycle, ExistingFileIsKeptWithoutForceAndReplacedWithForce) {
  const std::string file = path("out.h5");
  std::ofstream(file) << "previous";
  EXPECT_THROW(OutputFile(file, false, MPI_COMM_WORLD, Compression::none), UsageError);
  EXPECT_FALSE(has_partial(file));
  {
    OutputFile out(file, true, MPI_COMM_WORLD, Compression::none);
    out.set_attribute("/", "run", std::uint64_t{2});
    out.commit();
  }
  EXPECT_EQ(Reader(file).attribute_uint("/", "run"), 2u);
}

TEST_F(H5Lifecycle, FileAppearingDuringTheRunIsNotOverwrittenWithoutForce) {
  const std::string file = path("out.h5");
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    std::ofstream(file) << "someone else's";
    EXPECT_THROW(out.commit(), UsageError);
  }
  EXPECT_FALSE(has_partial(file));
  std::ifstream kept(file);
  std::string text;
  std::getline(kept, text);
  EXPECT_EQ(text, "someone else's");
}

// ---------------------------------------------------------------------------

using H5Errors = H5Files;

std::string message_of(const std::function<void()>& step) {
  try {
    step();
  } catch (const IoError& e) {
    return e.what();
  }
  return "(no IoError)";
}

TEST_F(H5Errors, NameTheObjectAndTheFileAndPrintNoHdf5Stack) {
  const std::string file = path("err.h5");
  const std::string partial = file + ".partial";
  ::testing::internal::CaptureStderr();
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    const std::vector<double> values = {1, 2};
    std::string m = message_of([&] { out.write_column("/nogroup/x", std::span<const double>(values), 0, 2); });
    EXPECT_NE(m.find("/nogroup/x"), std::string::npos) << m;
    EXPECT_NE(m.find(partial), std::string::npos) << m;
    m = message_of([&] { out.set_attribute("/missing", "a", 1.0); });
    EXPECT_NE(m.find("/missing"), std::string::npos) << m;
    EXPECT_NE(m.find(partial), std::string::npos) << m;
    out.create_group("/g");
    m = message_of([&] { out.create_group("/g"); });  // exists already
    EXPECT_NE(m.find("group /g"), std::string::npos) << m;
    m = message_of([&] { out.write_column("/g/y", std::span<const double>(values), 1, 2); });  // rows past the end
    EXPECT_NE(m.find("/g/y"), std::string::npos) << m;
    out.commit();
  }
  const Reader in(file);
  std::string m = message_of([&] { (void)in.read_uint("/g/none"); });
  EXPECT_NE(m.find("/g/none"), std::string::npos) << m;
  EXPECT_NE(m.find(file), std::string::npos) << m;
  m = message_of([&] { (void)in.attribute_text("/g", "none"); });
  EXPECT_NE(m.find("'none' of /g"), std::string::npos) << m;
  m = message_of([&] { Reader missing(path("missing.h5")); });
  EXPECT_NE(m.find(path("missing.h5")), std::string::npos) << m;
  std::ofstream(path("text.h5")) << "not hdf5";
  m = message_of([&] { Reader garbage(path("text.h5")); });
  EXPECT_NE(m.find(path("text.h5")), std::string::npos) << m;
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed.find("HDF5-DIAG"), std::string::npos) << printed;
}

}  // namespace
