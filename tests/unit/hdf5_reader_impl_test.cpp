// What Reader's methods share (src/hdf5/reader_impl), on files made with
// HDF5 itself rather than OutputFile: fixed-length strings of each padding,
// variable-length strings in either character set, stored types named for
// people, one-value attributes, and a dataspace too large for this machine
// refused before its buffer is made.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "h5_test_files.hpp"
#include "tdcone/hdf5/reader.hpp"

namespace {

using namespace tdcone::h5_test;
using tdcone::hdf5::Column;
using tdcone::hdf5::Reader;

// A file written with HDF5's own calls: datasets and attributes of any type.
class RawFile {
 public:
  explicit RawFile(const std::string& path) : file_(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) {}
  ~RawFile() { H5Fclose(file_); }

  // A 1-D dataset of `rows` elements of `type` holding `data` (nothing written when null).
  void dataset(const std::string& name, hid_t type, hsize_t rows, const void* data, bool chunked = false) {
    const hid_t space = H5Screate_simple(1, &rows, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunked) {
      const hsize_t chunk = 1024;
      H5Pset_chunk(dcpl, 1, &chunk);
    }
    const hid_t d = H5Dcreate2(file_, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    EXPECT_GE(d, 0) << name;
    if (data != nullptr) EXPECT_GE(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0) << name;
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
  }
  // An attribute of "/": scalar, or (`elements` given) 1-D.
  void attribute(const std::string& name, hid_t type, const void* data, hsize_t elements = 0) {
    const hid_t space = elements == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &elements, nullptr);
    const hid_t a = H5Acreate2(file_, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Awrite(a, type, data), 0) << name;
    H5Aclose(a);
    H5Sclose(space);
  }

 private:
  hid_t file_;
};

// A string type: fixed `width` bytes with `pad`, or variable-length (width 0).
hid_t string_type(std::size_t width, H5T_str_t pad, H5T_cset_t cset = H5T_CSET_ASCII) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, width == 0 ? H5T_VARIABLE : width);
  if (width > 0) H5Tset_strpad(type, pad);
  H5Tset_cset(type, cset);
  return type;
}

using ReaderImpl = H5Files;

TEST_F(ReaderImpl, FixedLengthStringsLoseThePaddingOfTheirKind) {
  const std::string file = path("fixed.h5");
  {
    RawFile f(file);
    const hid_t nullterm = string_type(4, H5T_STR_NULLTERM), nullpad = string_type(4, H5T_STR_NULLPAD),
                spacepad = string_type(4, H5T_STR_SPACEPAD);
    // Null-terminated text ends at its first null, whatever follows.
    const auto rows = [](std::string_view a, std::string_view b, std::string_view c) {
      return std::string(a) + std::string(b) + std::string(c);  // three rows of 4 bytes
    };
    using namespace std::string_view_literals;
    f.dataset("/nullterm", nullterm, 3, rows("ab\0z"sv, "abcd"sv, "\0xyz"sv).data());
    f.dataset("/nullpad", nullpad, 3, rows("a\0b\0"sv, "ab\0\0"sv, "\0\0\0\0"sv).data());
    f.dataset("/spacepad", spacepad, 3, rows("a b ", "ab  ", " x y").data());
    f.attribute("nullterm", nullterm, "ok\0z");
    f.attribute("nullpad", nullpad, "ok\0\0");
    f.attribute("spacepad", spacepad, "ok  ");
    for (hid_t t : {nullterm, nullpad, spacepad}) H5Tclose(t);
  }
  const Reader in(file);
  EXPECT_EQ(in.read_strings("/nullterm"), (std::vector<std::string>{"ab", "abcd", ""}));
  // Only trailing padding goes: a null inside the text stays.
  EXPECT_EQ(in.read_strings("/nullpad"), (std::vector<std::string>{std::string("a\0b", 3), "ab", ""}));
  EXPECT_EQ(in.read_strings("/spacepad"), (std::vector<std::string>{"a b", "ab", " x y"}));
  EXPECT_EQ(in.attribute_string("/", "nullterm"), "ok");
  EXPECT_EQ(in.attribute_string("/", "nullpad"), "ok");
  EXPECT_EQ(in.attribute_string("/", "spacepad"), "ok");
  EXPECT_EQ(in.read_column("/spacepad").text_values, (std::vector<std::string>{"a b", "ab", " x y"}));
}

TEST_F(ReaderImpl, VariableLengthStringsReadInTheirOwnCharacterSet) {
  const std::string file = path("variable.h5");
  const char* ascii[] = {"one", "", "three"};
  const char* utf8[] = {"Größe", "大"};
  const char* missing[] = {"x", nullptr};
  {
    RawFile f(file);
    const hid_t a = string_type(0, H5T_STR_NULLTERM), u = string_type(0, H5T_STR_NULLTERM, H5T_CSET_UTF8);
    f.dataset("/ascii", a, 3, ascii);
    f.dataset("/utf8", u, 2, utf8);
    f.dataset("/missing", a, 2, missing);
    f.attribute("ascii", a, &ascii[0]);
    f.attribute("utf8", u, &utf8[1]);
    H5Tclose(a);
    H5Tclose(u);
  }
  const Reader in(file);
  EXPECT_EQ(in.read_strings("/ascii"), (std::vector<std::string>{"one", "", "three"}));
  EXPECT_EQ(in.read_strings("/utf8"), (std::vector<std::string>{"Größe", "大"}));
  EXPECT_EQ(in.read_strings("/missing"), (std::vector<std::string>{"x", ""}));  // a null string reads as empty
  EXPECT_EQ(in.attribute_string("/", "ascii"), "one");
  EXPECT_EQ(in.attribute_string("/", "utf8"), "大");
  EXPECT_EQ(in.attribute_text("/", "utf8"), "大");
}

TEST_F(ReaderImpl, StoredTypesAreNamedBySignSizeAndKind) {
  const std::string file = path("types.h5");
  const std::int32_t i32[] = {-5, 7};
  const std::uint16_t u16[] = {1, 2};
  const float f32[] = {0.5f};
  const std::uint64_t u64[] = {1, 2, 3};
  {
    RawFile f(file);
    f.dataset("/i32", H5T_NATIVE_INT32, 2, i32);
    f.dataset("/u16", H5T_NATIVE_UINT16, 2, u16);
    f.dataset("/f32", H5T_NATIVE_FLOAT, 1, f32);
    const hid_t fixed = string_type(6, H5T_STR_NULLPAD), variable = string_type(0, H5T_STR_NULLTERM, H5T_CSET_UTF8);
    f.dataset("/fixed", fixed, 1, "abcdef");
    const char* text = "x";
    f.attribute("variable", variable, &text);
    const hid_t pair = H5Tcreate(H5T_COMPOUND, 8);
    H5Tinsert(pair, "a", 0, H5T_NATIVE_UINT32);
    H5Tinsert(pair, "b", 4, H5T_NATIVE_UINT32);
    f.dataset("/pair", pair, 1, u64);
    f.attribute("three", H5T_NATIVE_UINT64, u64, 3);
    f.attribute("one", H5T_NATIVE_UINT64, u64, 1);
    for (hid_t t : {fixed, variable, pair}) H5Tclose(t);
  }
  const Reader in(file);
  EXPECT_EQ(in.dataset_type("/i32"), "i32");
  EXPECT_EQ(in.dataset_type("/u16"), "u16");
  EXPECT_EQ(in.dataset_type("/f32"), "f32");
  EXPECT_EQ(in.dataset_type("/fixed"), "string (fixed 6 bytes, ASCII)");
  EXPECT_EQ(in.attribute_type("/", "variable"), "string (variable-length, UTF-8)");
  EXPECT_EQ(in.dataset_type("/pair"), "other");
  EXPECT_EQ(in.attribute_type("/", "three"), "u64[3]");
  EXPECT_EQ(in.attribute_type("/", "one"), "u64");  // an array of one is named as its value
  EXPECT_EQ(in.column_kind("/i32"), Column::Kind::signed_integer);
  EXPECT_EQ(in.column_kind("/u16"), Column::Kind::unsigned_integer);
  EXPECT_EQ(in.read_column("/i32").signed_values, (std::vector<std::int64_t>{-5, 7}));
  EXPECT_EQ(message_of([&] { (void)in.column_kind("/pair"); }),
            "dataset /pair in " + file + " is not a number or string column");
}

TEST_F(ReaderImpl, AValueAttributeMustHoldOneValue) {
  const std::string file = path("attributes.h5");
  const std::uint64_t values[] = {4, 5};
  const std::int64_t negative = -3;
  {
    RawFile f(file);
    f.attribute("two", H5T_NATIVE_UINT64, values, 2);
    f.attribute("one", H5T_NATIVE_UINT64, values, 1);
    f.attribute("negative", H5T_NATIVE_INT64, &negative);
  }
  const Reader in(file);
  EXPECT_EQ(message_of([&] { (void)in.attribute_uint("/", "two"); }),
            "attribute 'two' of / in " + file + " is not a single value");
  EXPECT_EQ(in.attribute_uint("/", "one"), 4u);  // one element, whatever its shape
  EXPECT_EQ(in.attribute_uints("/", "two"), (std::vector<std::uint64_t>{4, 5}));
  EXPECT_EQ(message_of([&] { (void)in.attribute_uint("/", "negative"); }),
            "attribute 'negative' of / in " + file + " is not a non-negative integer");
  EXPECT_EQ(in.attribute_text("/", "negative"), "-3");
}

TEST_F(ReaderImpl, MissingObjectsAreNamedWithTheFile) {
  const std::string file = path("empty.h5");
  { RawFile f(file); }
  const Reader in(file);
  const std::string dataset = message_of([&] { (void)in.read_uint("/none"); });
  EXPECT_EQ(dataset.rfind("cannot open dataset /none in " + file + ": ", 0), 0u) << dataset;
  const std::string attribute = message_of([&] { (void)in.attribute_double("/", "none"); });
  EXPECT_EQ(attribute.rfind("cannot open attribute 'none' of / in " + file + ": ", 0), 0u) << attribute;
  const std::string object = message_of([&] { (void)in.attribute_double("/g", "none"); });
  EXPECT_EQ(object.rfind("cannot open /g in " + file + ": ", 0), 0u) << object;
}

// A chunked dataset of 2^50 rows, never written: its size is only claimed.
TEST_F(ReaderImpl, RowsBeyondThisMachinesMemoryAreRefusedBeforeReading) {
  const std::string file = path("huge.h5");
  constexpr hsize_t kRows = hsize_t{1} << 50;
  {
    RawFile f(file);
    f.dataset("/huge", H5T_NATIVE_UINT64, kRows, nullptr, true);
    const hid_t fixed = string_type(4, H5T_STR_NULLPAD);
    f.dataset("/text", fixed, kRows, nullptr, true);
    H5Tclose(fixed);
  }
  const Reader in(file);
  EXPECT_EQ(in.rows("/huge"), kRows);
  const std::string numbers = message_of([&] { (void)in.read_uint("/huge"); });
  EXPECT_EQ(numbers.rfind(file + ": dataset /huge claims 1125899906842624 rows (8388608.0 GiB at 8 bytes a row), "
                                 "more than this machine's memory (",
                          0),
            0u)
      << numbers;
  EXPECT_NE(numbers.find("): a damaged or hand-made file? rerun the tdcone command that wrote it"), std::string::npos)
      << numbers;
  const std::string strings = message_of([&] { (void)in.read_strings("/text"); });
  EXPECT_NE(strings.find("dataset /text claims 1125899906842624 rows ("), std::string::npos) << strings;
  EXPECT_NE(strings.find(" at " + std::to_string(sizeof(std::string) + 4) + " bytes a row)"), std::string::npos)
      << strings;
  // A few of its rows are no trouble: their fill value.
  EXPECT_EQ(in.read_double("/huge", kRows - 3, 3), (std::vector<double>{0, 0, 0}));
}

}  // namespace
