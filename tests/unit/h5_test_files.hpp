#pragma once
// What the tests of src/hdf5 share: a scratch directory per test, a raw HDF5
// look at what a dataset or attribute is on disk, and the message of an IoError.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/hdf5/zstd_filter.hpp"

namespace tdcone::h5_test {

namespace fs = std::filesystem;

// A temporary file of `file`'s writer: `file` + ".partial-XXXXXX".
inline bool has_partial(const std::string& file) {
  const fs::path target(file);
  for (const auto& entry : fs::directory_iterator(target.parent_path()))
    if (entry.path().filename().string().starts_with(target.filename().string() + ".partial")) return true;
  return false;
}
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

inline DatasetLayout inspect(const std::string& file, const std::string& dataset) {
  tdcone::hdf5::register_zstd_filter();
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

inline AttributeType inspect_attribute(const std::string& file, const std::string& object, const std::string& name) {
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

inline std::string message_of(const std::function<void()>& step) {
  try {
    step();
  } catch (const tdcone::IoError& e) {
    return e.what();
  }
  return "(no IoError)";
}

/// The name of a Compression parameter, for INSTANTIATE_TEST_SUITE_P.
inline std::string compression_name(const ::testing::TestParamInfo<tdcone::hdf5::Compression>& info) {
  switch (info.param) {
    case tdcone::hdf5::Compression::deflate:
      return "deflate";
    case tdcone::hdf5::Compression::zstd:
      return "zstd";
    default:
      return "none";
  }
}

}  // namespace tdcone::h5_test
