#pragma once
// The rows of an export, written: a result table read whole, then its chosen
// rows as TSV or JSON lines, joined with their input text on request.
#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/exporting/query.hpp"

namespace tdcone::exporting {

/// A table of a result, read whole: its columns by name.
struct Table {
  std::string group;  // "/pairs"
  std::vector<std::string> names;
  std::vector<hdf5::Column> columns;

  std::size_t rows() const { return columns.empty() ? 0 : columns[0].size(); }
  std::optional<std::size_t> find(const std::string& name) const {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? std::nullopt : std::optional<std::size_t>(it - names.begin());
  }
  std::string listing() const {
    std::string list;
    for (const auto& name : names) list += cat(list.empty() ? "" : ", ", name);
    return list;
  }
  std::size_t column(const std::string& name, Option option) const {
    const auto k = find(name);
    if (!k) throw UsageError(cat(option, ": ", group, " has no column '", name, "' (its columns: ", listing(), ")"));
    return *k;
  }
};

/// Writes the header and the rows `rows` of `table` (of the result `reader`)
/// to `out`, named `out_name` in messages, zstd-compressed with `zstd`.
/// `discarded_on_error`: `out` is a partial file removed when this throws (not
/// standard output), so that the text may be checked while it is written.
void write_rows(const ExportConfig& options, const hdf5::Reader& reader, const Table& table, std::vector<std::size_t> rows,
                std::ostream& out, const std::string& out_name, bool zstd, bool discarded_on_error);

}  // namespace tdcone::exporting
