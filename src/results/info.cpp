// tdcone info: what a result file holds, for people.
#include "tdcone/results/info.hpp"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <sstream>

#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/results/checks.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::results {

namespace {

// Root attributes in this order first; the others after them by name; the config last.
// An older tdcone's result records its inputs in kInputAttributes (now /inputs).
std::vector<std::string> names_of(std::initializer_list<const schema::Attribute*> attributes) {
  std::vector<std::string> names;
  for (const schema::Attribute* attribute : attributes) names.emplace_back(attribute->name);
  return names;
}
namespace root = schema::root;
const std::vector<std::string> kRunAttributes = names_of({&root::command, &root::tdcone_version, &root::created,
                                                          &root::n_ranks, &root::n_lines, &root::n_scored,
                                                          &root::n_flagged});
const std::vector<std::string> kInputAttributes =
    names_of({&root::inputs, &root::input_sizes, &root::input_lines, &root::input_fingerprints});

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out += prefix + line + "\n";
  return out;
}

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// "name   value (type)" lines for the attributes `names` of `object`.
void print_attributes(std::ostream& out, const hdf5::Reader& reader, const std::string& object,
                      const std::vector<std::string>& names, const std::string& prefix) {
  std::size_t width = 0;
  for (const auto& name : names) width = std::max(width, name.size());
  for (const auto& name : names) {
    std::string value;
    try {
      value = reader.attribute_text(object, name);
    } catch (const IoError&) {  // a type tdcone does not write (an array of strings, a compound): say so, go on
      value = cat("(", reader.attribute_type(object, name), ")");
    }
    std::replace(value.begin(), value.end(), '\n', ' ');
    out << prefix << name << std::string(width - name.size() + 2, ' ') << value << "\n";
  }
}

// The inputs of the run, one a line, with what was recorded of each.
void print_inputs(std::ostream& out, const hdf5::Reader& reader) {
  const RecordedFiles recorded = recorded_files(reader);
  if (!recorded.given) return;
  const auto& paths = recorded.paths;
  const auto &sizes = recorded.sizes, &lines = recorded.lines, &prints = recorded.fingerprints;
  out << "  inputs (" << paths.size() << ")\n";
  for (std::size_t k = 0; k < paths.size(); ++k) {
    out << "    " << paths[k];
    std::string details;
    if (k < sizes.size()) details += cat(sizes[k], " bytes");
    if (k < lines.size()) details += cat(", ", lines[k], " lines");
    if (k < prints.size()) details += cat(", fingerprint ", hex(prints[k]));
    if (!details.empty()) out << "  (" << details << ")";
    out << "\n";
  }
  if (prints.empty()) out << "    (no sizes or fingerprints recorded: written by an older tdcone)\n";
}

void print_group(std::ostream& out, const hdf5::Reader& reader, const std::string& group) {
  const auto columns = reader.datasets(group);
  std::size_t rows = 0;
  for (const auto& name : columns) rows = std::max(rows, reader.rows(group + "/" + name));
  out << "\n" << group;
  if (!columns.empty()) out << ": " << rows << " rows, " << columns.size() << " columns";
  out << "\n";
  const auto attributes = reader.attributes(group);
  if (!attributes.empty()) {
    out << "  attributes\n";
    print_attributes(out, reader, group, attributes, "    ");
  }
  if (!columns.empty()) {
    out << "  columns\n";
    std::size_t width = 0;
    for (const auto& name : columns) width = std::max(width, name.size());
    for (const auto& name : columns) {
      out << "    " << name << std::string(width - name.size() + 2, ' ') << reader.dataset_type(group + "/" + name);
      const std::size_t n = reader.rows(group + "/" + name);
      if (n != rows) out << "  (" << n << " rows)";
      out << "\n";
    }
  }
  for (const auto& child : reader.groups(group)) print_group(out, reader, group + "/" + child);
}

}  // namespace

void print_info(std::ostream& out, const std::string& path) {
  const hdf5::Reader reader(path);
  check_tdcone_result(reader, path);
  const auto attributes = reader.attributes(root::group);
  out << path << ": tdcone result";
  if (contains(attributes, root::command.name))
    out << " of `tdcone " << reader.attribute_text(root::group, root::command.name) << "`";
  out << "\n";
  std::vector<std::string> first, rest;
  for (const auto& name : kRunAttributes)
    if (contains(attributes, name)) first.push_back(name);
  for (const auto& name : attributes)
    if (!contains(kRunAttributes, name) && !contains(kInputAttributes, name) && name != root::config.name)
      rest.push_back(name);
  print_attributes(out, reader, root::group, first, "  ");
  print_inputs(out, reader);
  print_attributes(out, reader, root::group, rest, "  ");
  if (contains(attributes, root::config.name))
    out << "  config\n" << indent(reader.attribute_string(root::group, root::config.name), "    ");
  for (const auto& name : reader.groups(root::group)) {
    const std::string group = root::group + name;
    if (group != schema::inputs::group) print_group(out, reader, group);  // listed above
  }
}


}  // namespace tdcone::results
