#include "tdcone/results/checks.hpp"

#include <algorithm>
#include <sstream>

#include "tdcone/core/error.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::results {

std::optional<std::uint64_t> version_major(const std::string& version) {
  // MAJOR.MINOR[.PATCH...][-SUFFIX or +SUFFIX], MAJOR of 1 to 9 digits and the
  // suffix on one line. Read in one pass: a regular expression recursed once
  // per character, and a long attribute crashed the reader of a hostile file.
  const auto digits_from = [&](std::size_t at) {
    while (at < version.size() && version[at] >= '0' && version[at] <= '9') ++at;
    return at;
  };
  std::size_t at = digits_from(0);
  if (at == 0 || at > 9) return std::nullopt;
  const std::uint64_t major = std::stoull(version.substr(0, at));
  std::size_t parts = 0;
  for (; at < version.size() && version[at] == '.'; ++parts) {
    const std::size_t end = digits_from(at + 1);
    if (end == at + 1) return std::nullopt;
    at = end;
  }
  if (parts == 0) return std::nullopt;
  if (at == version.size()) return major;
  if (version[at] != '-' && version[at] != '+') return std::nullopt;
  if (version.find_first_of("\n\r", at) != std::string::npos) return std::nullopt;
  return major;
}

std::string result_version_problem(const std::optional<std::string>& version) {
  if (!version) return "is an HDF5 file but not a tdcone result (no tdcone_version attribute on /)";
  const auto major = version_major(*version);
  const std::string shown = version->size() > 80 ? version->substr(0, 80) + "..." : *version;  // a line, not a page
  if (!major)
    return cat("has a tdcone_version attribute that is not a version ('", shown,
               "', not MAJOR.MINOR.PATCH): damaged, or not written by tdcone");
  const std::uint64_t ours = *version_major(TDCONE_VERSION);
  if (*major > ours)
    return cat("was written by tdcone ", shown, ", a newer major version than this tdcone ", TDCONE_VERSION,
               " reads (", ours, ".x and older): read it with tdcone ", *major, ".x or newer");
  return "";
}

void check_tdcone_result(const hdf5::Reader& reader, const std::string& path) {
  std::optional<std::string> version;
  const schema::Attribute& attribute = schema::root::tdcone_version;
  if (std::ranges::count(reader.attributes(attribute.object), std::string(attribute.name)) > 0) {
    try {
      version = reader.attribute_text(attribute.object, attribute.name);
    } catch (const IoError&) {  // a type tdcone never writes there (a compound, an array of strings)
      version = cat("(", reader.attribute_type(attribute.object, attribute.name), ")");
    }
  }
  if (const std::string problem = result_version_problem(version); !problem.empty())
    throw IoError(cat(path, " ", problem));
}

namespace {

// A result written by someone else: what tdcone writes, said with the writer to rerun.
std::string rerun(const schema::Table& table) {
  return cat(": a damaged, cut or hand-made file? rerun ", table.writer);
}

// Whether a stored column kind is the schema's type: unsigned integers of any
// width for u8..u64, a number for f64, text for strings.
bool kind_fits(hdf5::Column::Kind kind, schema::Type type) {
  switch (type) {
    case schema::Type::u8:
    case schema::Type::u16:
    case schema::Type::u32:
    case schema::Type::u64: return kind == hdf5::Column::Kind::unsigned_integer;
    case schema::Type::f64: return kind != hdf5::Column::Kind::text;
    case schema::Type::string: return kind == hdf5::Column::Kind::text;
    case schema::Type::u64_array: return false;
  }
  return false;
}

// The tables with one row per input line, and those of them whose row r is pair_id r.
bool one_row_a_line(std::string_view group) {
  return group == schema::pairs::group || group == schema::balance::group || group == schema::selection::group;
}
bool in_pair_id_order(std::string_view group) {
  return group == schema::pairs::group || group == schema::balance::group;
}

// Every column of the table in its schema type, all of one length, and, for a
// table of one row a line, of n_lines rows: checked on the dataspaces, before a
// column is read (a dataspace that claims 10^12 rows is refused, not allocated).
// Columns of differing lengths: a usage error, as export has always said it.
void check_column_shapes(const hdf5::Reader& reader, const std::string& path, const schema::Table& table,
                         const std::vector<std::string>& present) {
  for (const std::string& name : present) {
    const std::string dataset = cat(table.group, "/", name);
    const auto known = std::ranges::find_if(table.columns, [&](const schema::Column* c) { return c->name == name; });
    if (known == table.columns.end()) continue;
    if (!kind_fits(reader.column_kind(dataset), (*known)->type))
      throw IoError(cat(path, ": ", dataset, " is stored as ", reader.dataset_type(dataset), ", not ",
                        schema::type_name((*known)->type), " as tdcone writes it", rerun(table)));
  }
  std::vector<std::size_t> rows;
  std::string listing;
  for (const std::string& name : present) {
    rows.push_back(reader.rows(cat(table.group, "/", name)));
    listing += cat(listing.empty() ? "" : ", ", name, " ", rows.back());
  }
  if (std::ranges::adjacent_find(rows, std::ranges::not_equal_to{}) != rows.end())  // as export's read_table says it
    throw UsageError(cat(path, ": the columns of ", table.group, " differ in length (rows: ", listing,
                         "): not a complete tdcone result"));
  const std::optional<std::uint64_t> lines = recorded_line_count(reader);
  if (lines && one_row_a_line(table.group) && !rows.empty() && rows[0] != *lines)
    throw IoError(cat(path, ": the columns of ", table.group, " have ", rows[0], " rows, not one for each of the n_lines ",
                      *lines, " lines the run read", rerun(table)));
}

}  // namespace

std::optional<std::uint64_t> recorded_line_count(const hdf5::Reader& reader) {
  const schema::Attribute& n_lines = schema::root::n_lines;
  if (std::ranges::count(reader.attributes(n_lines.object), std::string(n_lines.name)) == 0) return std::nullopt;
  return reader.attribute_uint(n_lines.object, n_lines.name);
}

void check_pair_ids(const std::string& path, const std::string& group, std::span<const std::uint64_t> pair_ids,
                    std::optional<std::uint64_t> n_lines) {
  const schema::Table* table = schema::find_table(group);
  if (table == nullptr || !one_row_a_line(group)) return;
  const std::string dataset = cat(group, "/", schema::pairs::pair_id.name);
  const std::uint64_t lines = n_lines.value_or(pair_ids.size());
  if (lines != pair_ids.size())
    throw IoError(cat(path, ": ", dataset, " has ", pair_ids.size(), " rows, not one for each of the n_lines ", lines,
                      " lines the run read", rerun(*table)));
  std::vector<bool> seen(lines, false);
  for (std::size_t r = 0; r < pair_ids.size(); ++r) {
    const std::uint64_t id = pair_ids[r];
    if (id >= lines)
      throw IoError(cat(path, ": ", dataset, " holds ", id, " at row ", r, ", out of range: the run read ", lines,
                        " lines (pair_ids 0 to ", lines - 1, ")", rerun(*table)));
    if (seen[id]) {
      const auto before = std::find(pair_ids.begin(), pair_ids.end(), id) - pair_ids.begin();
      throw IoError(cat(path, ": ", dataset, " holds ", id, " twice (rows ", before, " and ", r,
                        "), where tdcone writes each pair_id once", rerun(*table)));
    }
    seen[id] = true;
    if (in_pair_id_order(group) && id != r)
      throw IoError(cat(path, ": ", dataset, " holds ", id, " at row ", r, ", where tdcone writes pair_id ", r,
                        " (rows in pair_id order)", rerun(*table)));
  }
}

void check_pair_id_rows(const hdf5::Reader& reader, const std::string& path, const std::string& group,
                        std::uint64_t first, std::uint64_t count) {
  const schema::Table* table = schema::find_table(group);
  if (table == nullptr || !in_pair_id_order(group)) return;
  const std::string dataset = cat(group, "/", schema::pairs::pair_id.name);
  // In blocks: every rank checks its own rows without holding a whole column.
  constexpr std::uint64_t kBlock = std::uint64_t{1} << 20;
  for (std::uint64_t start = first; start < first + count; start += kBlock) {
    const std::vector<std::uint64_t> ids = reader.read_uint(dataset, start, std::min(kBlock, first + count - start));
    for (std::size_t k = 0; k < ids.size(); ++k)
      if (ids[k] != start + k)
        throw IoError(cat(path, ": ", dataset, " holds ", ids[k], " at row ", start + k, ", where tdcone writes pair_id ",
                          start + k, " (each pair_id once, rows in pair_id order)", rerun(*table)));
  }
}

void check_result_table(const hdf5::Reader& reader, const std::string& path, const std::string& group,
                        const std::string& need) {
  const schema::Table* table = schema::find_table(group);
  if (table == nullptr || !table->checked) return;
  if (!reader.exists(group))
    throw IoError(cat(need, ": ", path, " has no ", group, " table (", table->writer, " writes it): give a ",
                      table->writer, " result"));
  const std::vector<std::string> columns = table->required_columns();
  std::string listing;
  for (const auto& column : columns) listing += cat(listing.empty() ? "" : ", ", column);
  const auto present = reader.datasets(group);
  for (const auto& column : columns)
    if (std::ranges::count(present, column) == 0)
      throw IoError(cat(path, ": ", group, " has no '", column, "' column, which ", need, " needs (", table->writer,
                        " writes ", listing, "): a damaged, cut or hand-made file? rerun ", table->writer));
  check_column_shapes(reader, path, *table, present);
}

RecordedFiles recorded_files(const hdf5::Reader& reader) {
  RecordedFiles recorded;
  if (reader.exists(schema::inputs::path.path())) {
    recorded.given = true;
    recorded.paths = reader.read_strings(schema::inputs::path.path());
    const auto column = [&](const schema::Column& dataset) {
      return reader.exists(dataset.path()) ? reader.read_uint(dataset.path()) : std::vector<std::uint64_t>();
    };
    recorded.sizes = column(schema::inputs::size);
    recorded.lines = column(schema::inputs::lines);
    recorded.fingerprints = column(schema::inputs::fingerprint);
    return recorded;
  }
  // An older tdcone's result: root attributes.
  const auto attributes = reader.attributes(schema::root::group);
  const auto has = [&](const schema::Attribute& attribute) {
    return std::ranges::count(attributes, std::string(attribute.name)) > 0;
  };
  if (!has(schema::root::inputs)) return recorded;
  recorded.given = true;
  std::istringstream list(reader.attribute_string(schema::root::group, schema::root::inputs.name));
  for (std::string path; std::getline(list, path);)
    if (!path.empty()) recorded.paths.push_back(path);
  const auto attribute = [&](const schema::Attribute& listed) {
    return has(listed) ? reader.attribute_uints(listed.object, listed.name) : std::vector<std::uint64_t>();
  };
  recorded.sizes = attribute(schema::root::input_sizes);
  recorded.lines = attribute(schema::root::input_lines);
  recorded.fingerprints = attribute(schema::root::input_fingerprints);
  return recorded;
}

}  // namespace tdcone::results
