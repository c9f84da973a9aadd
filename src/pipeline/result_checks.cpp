#include "tdcone/pipeline/result_checks.hpp"

#include <algorithm>
#include <sstream>

#include "tdcone/core/error.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::pipeline {

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

void check_tdcone_result(const h5::Reader& reader, const std::string& path) {
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

void check_result_table(const h5::Reader& reader, const std::string& path, const std::string& group,
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
}

RecordedFiles recorded_files(const h5::Reader& reader) {
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

}  // namespace tdcone::pipeline
