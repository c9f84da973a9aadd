#pragma once
// Read access to a finished result file, serial (one process, no MPI needed):
// for export, info, the checks and the tests.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tdcone/hdf5/column.hpp"

namespace tdcone::hdf5 {

/// Read access to a finished file (one process, no MPI needed).
class Reader {
 public:
  explicit Reader(const std::string& path);  // throws IoError naming the path
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  bool exists(const std::string& object) const;                           // "/pairs", "/pairs/tdcone"
  std::vector<std::string> datasets(const std::string& group) const;      // names in creation order
  std::vector<std::string> groups(const std::string& group) const;        // subgroup names, in creation order
  std::vector<std::string> attributes(const std::string& object) const;   // names

  double attribute_double(const std::string& object, const std::string& name) const;
  std::uint64_t attribute_uint(const std::string& object, const std::string& name) const;
  std::string attribute_string(const std::string& object, const std::string& name) const;
  /// A 1-D (or single) unsigned integer attribute.
  std::vector<std::uint64_t> attribute_uints(const std::string& object, const std::string& name) const;
  /// Any attribute rendered as text (numbers with full precision; an array as "[a, b, ...]").
  std::string attribute_text(const std::string& object, const std::string& name) const;
  /// The stored type of an attribute or dataset, for people: "u64", "f64",
  /// "string (variable-length, UTF-8)", "string (fixed 12 bytes, UTF-8)", ...
  std::string attribute_type(const std::string& object, const std::string& name) const;
  std::string dataset_type(const std::string& dataset) const;
  std::size_t rows(const std::string& dataset) const;  // elements
  /// The kind read_column would read `dataset` as, without reading it; throws
  /// IoError for a type no column has (a compound, an array...).
  Column::Kind column_kind(const std::string& dataset) const;

  std::vector<std::uint64_t> read_uint(const std::string& dataset) const;  // any unsigned integer column
  /// Rows [first, first + count) of an unsigned integer column; throws IoError past its end.
  std::vector<std::uint64_t> read_uint(const std::string& dataset, std::uint64_t first, std::uint64_t count) const;
  std::vector<double> read_double(const std::string& dataset) const;
  /// Rows [first, first + count) of a numeric column (a rank's share); throws IoError past its end.
  std::vector<double> read_double(const std::string& dataset, std::uint64_t first, std::uint64_t count) const;
  std::vector<std::string> read_strings(const std::string& dataset) const;
  /// Any column in its own type.
  Column read_column(const std::string& dataset) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tdcone::hdf5
