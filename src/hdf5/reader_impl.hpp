#pragma once
// Private to src/hdf5: the state of a Reader and what its methods share:
// opening objects, the stored type of an attribute or dataset, and the
// reading of numbers and strings (fixed- or variable-length).
#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

#include "h5handle.hpp"
#include "tdcone/hdf5/reader.hpp"

namespace tdcone::hdf5 {

struct Reader::Impl {
  std::string path;
  detail::Handle file;

  detail::Handle open_object(const std::string& object) const;
  detail::Handle open_attribute(const std::string& object, const std::string& name) const;
  detail::Handle open_dataset(const std::string& dataset) const;

  /// The stored type of an attribute or dataset, with its class.
  struct TypeInfo {
    detail::Handle type;
    H5T_class_t cls = H5T_NO_CLASS;
    bool is_signed = false;
  };
  /// Takes ownership of `type_id` (H5Aget_type, H5Dget_type) and classifies it.
  TypeInfo type_of(hid_t type_id, const std::string& what) const;
  /// Takes ownership of `space_id` and counts its elements.
  std::size_t element_count(hid_t space_id, const std::string& what) const;
  /// Throws IoError naming the file and `what` when `rows` rows of `row_bytes`
  /// would not fit in this machine's memory: a damaged or hand-made dataspace is
  /// refused before its buffer is allocated.
  void check_fits(std::size_t rows, std::size_t row_bytes, const std::string& what) const;
  /// "u64", "f64", "string (fixed 12 bytes, UTF-8)", ... (Reader::dataset_type).
  std::string type_name(const TypeInfo& info, const std::string& what) const;
  /// Throws IoError "<what> in <file> is not <expected>".
  [[noreturn]] void wrong_type(const std::string& what, const char* expected) const;

  /// For a variable-length string type, the memory type that reads it (in its
  /// stored character set); an invalid handle for a fixed-length one.
  detail::Handle variable_string_memory(const TypeInfo& info, const std::string& what) const;

  // ---- attributes ----

  /// Opens a one-element attribute and returns it with its type.
  std::pair<detail::Handle, TypeInfo> scalar_attribute(const std::string& object, const std::string& name) const;

  template <class T>
  T read_attribute(hid_t attribute, hid_t memory_type, const std::string& what) const {
    T value{};
    detail::check(H5Aread(attribute, memory_type, &value), "read", what, path);
    return value;
  }

  std::string read_string_attribute(hid_t attribute, const TypeInfo& info, const std::string& what) const;

  // ---- datasets ----

  std::vector<std::string> read_string_dataset(hid_t dset, const TypeInfo& info, std::size_t n,
                                               const std::string& what) const;

  template <class T>
  std::vector<T> read_numbers(hid_t dset, hid_t memory_type, std::size_t n, const std::string& what) const {
    check_fits(n, sizeof(T), what);
    std::vector<T> rows(n);
    if (n > 0) detail::check(H5Dread(dset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), "read", what, path);
    return rows;
  }

  /// Rows [first, first + count) only.
  template <class T>
  std::vector<T> read_rows(hid_t dset, hid_t memory_type, hsize_t first, hsize_t count, const std::string& what) const {
    check_fits(count, sizeof(T), what);
    std::vector<T> rows(count);
    if (count == 0) return rows;
    const detail::Handle file_space = detail::own(H5Dget_space(dset), H5Sclose, "get the dataspace of", what, path);
    detail::check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &first, nullptr, &count, nullptr),
                  "select rows of", what, path);
    const detail::Handle memory_space =
        detail::own(H5Screate_simple(1, &count, nullptr), H5Sclose, "create a memory dataspace for", what, path);
    detail::check(H5Dread(dset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, rows.data()), "read",
                  what, path);
    return rows;
  }
};

}  // namespace tdcone::hdf5
