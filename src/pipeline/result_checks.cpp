#include "tdcone/pipeline/result_checks.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

#include "tdcone/core/error.hpp"

namespace tdcone::pipeline {

std::optional<std::uint64_t> version_major(const std::string& version) {
  static const std::regex kVersion(R"((\d{1,9})\.\d+(\.\d+)*([-+].*)?)");
  std::smatch match;
  if (!std::regex_match(version, match, kVersion)) return std::nullopt;
  return std::stoull(match[1].str());
}

std::string result_version_problem(const std::optional<std::string>& version) {
  if (!version) return "is an HDF5 file but not a tdcone result (no tdcone_version attribute on /)";
  const auto major = version_major(*version);
  if (!major)
    return cat("has a tdcone_version attribute that is not a version ('", *version,
               "', not MAJOR.MINOR.PATCH): damaged, or not written by tdcone");
  const std::uint64_t ours = *version_major(TDCONE_VERSION);
  if (*major > ours)
    return cat("was written by tdcone ", *version, ", a newer major version than this tdcone ", TDCONE_VERSION,
               " reads (", ours, ".x and older): read it with tdcone ", *major, ".x or newer");
  return "";
}

void check_tdcone_result(const h5::Reader& reader, const std::string& path) {
  std::optional<std::string> version;
  if (std::ranges::count(reader.attributes("/"), std::string("tdcone_version")) > 0) {
    try {
      version = reader.attribute_text("/", "tdcone_version");
    } catch (const IoError&) {  // a type tdcone never writes there (a compound, an array of strings)
      version = cat("(", reader.attribute_type("/", "tdcone_version"), ")");
    }
  }
  if (const std::string problem = result_version_problem(version); !problem.empty())
    throw IoError(cat(path, " ", problem));
}

namespace {
// The columns tdcone always writes into each table (SPEC §8), and the command that writes it.
struct TableSchema {
  std::string group;
  std::vector<std::string> columns;
  std::string writer;
};
const std::vector<TableSchema> kTables = {
    {"/pairs", {"pair_id", "tdcone", "rank", "flags", "src_len", "tgt_len"}, "tdcone score"},
    {"/selection", {"pair_id", "rank", "delta_h", "penalty", "gain", "cross_entropy", "root_word", "wge", "flags"},
     "tdcone select"},
    {"/balance", {"pair_id", "combination", "kept", "rank_in_combination", "flags"}, "tdcone balance"},
    {"/combinations", {"combination", "before", "target", "after", "under_represented"}, "tdcone balance"},
    {"/labels", {"label", "n_pairs", "tdcone"}, "tdcone score --by-label"},
    {"/shards", {"shard", "n_pairs", "tdcone"}, "tdcone score --shards"},
    {"/sweep", {"threshold", "n_pairs", "n_sampled", "tdcone"}, "tdcone sweep"},
};
}  // namespace

void check_result_table(const h5::Reader& reader, const std::string& path, const std::string& group,
                        const std::string& need) {
  const auto schema = std::ranges::find(kTables, group, &TableSchema::group);
  if (schema == kTables.end()) return;
  if (!reader.exists(group))
    throw IoError(cat(need, ": ", path, " has no ", group, " table (", schema->writer, " writes it): give a ",
                      schema->writer, " result"));
  std::string listing;
  for (const auto& column : schema->columns) listing += cat(listing.empty() ? "" : ", ", column);
  const auto present = reader.datasets(group);
  for (const auto& column : schema->columns)
    if (std::ranges::count(present, column) == 0)
      throw IoError(cat(path, ": ", group, " has no '", column, "' column, which ", need, " needs (", schema->writer,
                        " writes ", listing, "): a damaged, cut or hand-made file? rerun ", schema->writer));
}

RecordedFiles recorded_files(const h5::Reader& reader) {
  RecordedFiles recorded;
  if (reader.exists("/inputs/path")) {
    recorded.given = true;
    recorded.paths = reader.read_strings("/inputs/path");
    const auto column = [&](const char* name) {
      return reader.exists(name) ? reader.read_uint(name) : std::vector<std::uint64_t>();
    };
    recorded.sizes = column("/inputs/size");
    recorded.lines = column("/inputs/lines");
    recorded.fingerprints = column("/inputs/fingerprint");
    return recorded;
  }
  // An older tdcone's result: root attributes.
  const auto attributes = reader.attributes("/");
  const auto has = [&](const char* name) { return std::ranges::count(attributes, std::string(name)) > 0; };
  if (!has("inputs")) return recorded;
  recorded.given = true;
  std::istringstream list(reader.attribute_string("/", "inputs"));
  for (std::string path; std::getline(list, path);)
    if (!path.empty()) recorded.paths.push_back(path);
  const auto attribute = [&](const char* name) {
    return has(name) ? reader.attribute_uints("/", name) : std::vector<std::uint64_t>();
  };
  recorded.sizes = attribute("input_sizes");
  recorded.lines = attribute("input_lines");
  recorded.fingerprints = attribute("input_fingerprints");
  return recorded;
}

}  // namespace tdcone::pipeline
