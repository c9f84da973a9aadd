#include "tdcone/exporting/where_filter.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/exporting/where.hpp"
#include "tdcone/results/checks.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::exporting {

void check_where_options(const WhereFilter& filter) {
  if (filter.where.empty() != filter.where_result.empty())
    throw UsageError(filter.where.empty()
                         ? cat(Option::where_result, " is read by ", Option::where, ": give the conditions with ",
                               Option::where)
                         : cat(Option::where, " reads the /pairs of a score result of this corpus: give it with ",
                               Option::where_result, " (e.g. the output of tdcone score ", Option::dedup, " tokens)"));
  if (!filter.where_result.empty()) check_result_path(Option::where_result, filter.where_result);
  // Every rank refuses a malformed or over-long condition here, the same way,
  // before any file is read.
  for (const std::string& condition : filter.where) split_where(condition);
}

void check_result_path(Option option, const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    throw UsageError(cat(option, " ", path, ": no such file; give a tdcone result (.h5)"));
  if (const std::string kind = io::not_a_regular_file(path); !kind.empty())
    throw UsageError(cat(option, " ", path, " is ", kind, ", not a file: a result is read in place (HDF5 seeks in it); "
                         "give the .h5 file itself"));
}

void check_same_corpus(const hdf5::Reader& reader, Option option, const std::string& path,
                       const text::TokenizedShare& share, const RunConfigReader& read_run_config) {
  const RunInputs run = recorded_inputs(reader, path, false, {}, std::nullopt, read_run_config);
  if (run.lines != share.file_lines || run.fingerprints != share.file_fingerprints)
    throw UsageError(cat(option, " ", path, " was not computed on this corpus (its recorded input lines or content "
                         "fingerprints differ from the files read now); give a result of the same ", Option::input));
}

std::vector<std::uint8_t> passes_where(const WhereFilter& filter, const text::TokenizedShare& share,
                                       const RunConfigReader& read_run_config) {
  const std::string& path = filter.where_result;
  const hdf5::Reader reader(path);
  results::check_tdcone_result(reader, path);
  results::check_result_table(reader, path, schema::pairs::group, option_name(Option::where));
  check_same_corpus(reader, Option::where_result, path, share, read_run_config);
  results::check_pair_id_rows(reader, path, schema::pairs::group, share.first_pair_id, share.size());  // row r is line r
  const std::vector<std::string> names = reader.datasets(schema::pairs::group);
  std::map<std::string, hdf5::Column> columns;  // the ones the conditions name, each read once
  const auto column_named = [&](const std::string& name) -> const hdf5::Column& {
    if (const auto found = columns.find(name); found != columns.end()) return found->second;
    if (std::ranges::find(names, name) == names.end()) {
      std::string listing;
      for (const auto& known : names) listing += cat(listing.empty() ? "" : ", ", known);
      throw UsageError(cat(Option::where, ": ", path, " has no column '", name, "' in /pairs (it has: ", listing, ")"));
    }
    hdf5::Column column = reader.read_column(std::string(schema::pairs::group) + "/" + name);
    if (column.size() != share.total_lines)
      throw UsageError(cat(Option::where, ": /pairs/", name, " of ", path, " has ", column.size(), " rows, not the ",
                           share.total_lines, " lines of the corpus: not a complete tdcone result"));
    return columns.emplace(name, std::move(column)).first->second;
  };
  std::vector<RowCondition> conditions;
  for (const std::string& text : filter.where)
    conditions.push_back(parse_where(text, column_named, schema::pairs::group));
  std::vector<std::uint8_t> passes(share.size(), 1);
  for (std::size_t i = 0; i < share.size(); ++i)
    for (const RowCondition& condition : conditions)
      if (!condition.holds(share.first_pair_id + i)) passes[i] = 0;
  return passes;
}

}  // namespace tdcone::exporting
