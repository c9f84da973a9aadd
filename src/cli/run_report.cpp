#include "tdcone/cli/run_report.hpp"

#include <boost/mpi/collectives.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <regex>
#include <sstream>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/mpi/share_reader.hpp"
#include "tdcone/core/guard.hpp"
#include "tdcone/core/progress.hpp"

namespace tdcone::cli {

namespace {

// "a.tsv", "a.tsv, b.tsv", "a.tsv, b.tsv, c.tsv and 4 more files".
std::string file_names(const std::vector<io::InputFile>& files) {
  constexpr std::size_t kNamed = 3;
  std::string names;
  for (std::size_t i = 0; i < files.size() && i < kNamed; ++i) names += (i ? ", " : "") + files[i].path;
  if (files.size() > kNamed) names += cat(" and ", files.size() - kNamed, " more files");
  return names;
}

// "; is a.txt a one-sided file? ...": when at least 9 in 10 of the first bad lines have a single column.
std::string one_sided_hint(const std::vector<text::BadLine>& first, const BadLinePolicy& policy) {
  if (policy.two_file_options.empty() || first.empty()) return {};
  const auto one_column = std::ranges::count_if(  // a one-sided file's blank lines are "empty line"
      first, [](const text::BadLine& b) { return b.reason == "missing column 2" || b.reason == "empty line"; });
  if (10 * static_cast<std::size_t>(one_column) < 9 * first.size()) return {};
  return cat("; is ", first[0].file, " a one-sided file (one sentence a line)? for parallel files use ",
             policy.two_file_options);
}

}  // namespace

std::string describe_input(const std::vector<io::InputFile>& files, const std::string& what) {
  return cat(file_names(files), " (", what, ")");
}

std::string first_reasons(const std::vector<text::BadLine>& first) {
  constexpr std::size_t kQuoted = 3;
  std::string text = " (first: ";
  for (std::size_t i = 0; i < first.size() && i < kQuoted; ++i)
    text += cat(i ? "; " : "", first[i].file, ":", first[i].line, ": ", first[i].reason);
  return text + (first.size() > kQuoted ? "; ...)" : ")");
}

std::string encoding_hint(const std::vector<text::BadLine>& first) {
  // Invalid UTF-8 is most often a file in Latin-1 (or Windows-1252): iconv converts it.
  for (const auto& line : first)
    if (line.reason.starts_with("invalid UTF-8"))
      return cat("invalid UTF-8: if ", line.file, " is Latin-1, convert it: iconv -f latin1 -t utf-8 ", line.file, " > ",
                 line.file, ".utf8");
  return "";
}

void list_lines(const std::vector<text::BadLine>& lines) {
  for (const auto& line : lines)
    std::fprintf(stderr, "  %s:%llu: %s\n", line.file.c_str(), (unsigned long long)line.line, line.reason.c_str());
  if (const std::string hint = encoding_hint(lines); !hint.empty()) std::fprintf(stderr, "  (%s)\n", hint.c_str());
}

LineCounts account_lines(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                         const std::vector<io::InputFile>& files, const BadLinePolicy& policy, const std::string& what) {
  LineCounts counts;
  counts.lines = share.total_lines;
  counts.flagged = mpi::sum_all<std::uint64_t>(comm, share.bad_count);
  counts.scored = counts.lines - counts.flagged;
  const std::string input = describe_input(files, what);
  // The counts are global: every rank takes the same branch.
  if (counts.lines == 0)
    mpi::fail_everywhere(cat(input, ": no usable line: the input is empty"), 1);
  if (counts.flagged == 0) return counts;
  const auto first = mpi::first_bad_lines(comm, share.bad_lines);
  const auto also = [](const std::string& hint) { return hint.empty() ? "" : "; " + hint; };
  const std::string or_convert = also(encoding_hint(first));
  if (policy.on_bad_line == "fail")
    mpi::fail_everywhere(cat(first[0].file, ":", first[0].line, ": ", first[0].reason,
                             " (--on-bad-line fail; use --on-bad-line skip to flag such lines and go on)",
                             also(encoding_hint({first[0]}))),
                         1);
  if (counts.scored == 0)
    mpi::fail_everywhere(cat(input, ": no usable line: ", counts.lines == 1 ? "its only line is" : cat("all ", counts.lines, " lines are"),
                             " bad", first_reasons(first), "; check ", policy.hint, one_sided_hint(first, policy), or_convert),
                         1);
  if (static_cast<double>(counts.flagged) > policy.max_bad_fraction * static_cast<double>(counts.lines)) {
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * static_cast<double>(counts.flagged) / static_cast<double>(counts.lines));
    mpi::fail_everywhere(cat(input, ": ", counts.flagged, " of ", counts.lines, " lines are bad (", percent,
                             "), more than --max-bad-fraction ", policy.max_bad_fraction, first_reasons(first),
                             "; check ", policy.hint, ", or raise --max-bad-fraction", one_sided_hint(first, policy), or_convert),
                         1);
  }
  if (comm.rank() == 0) {
    if (quiet()) {
      std::fprintf(stderr, "tdcone: %llu bad line(s) of %s flagged and skipped (not listed: --quiet)\n",
                   (unsigned long long)counts.flagged, input.c_str());
    } else {
      std::fprintf(stderr, "tdcone: %llu bad line(s) of %s flagged and skipped%s:\n", (unsigned long long)counts.flagged,
                   input.c_str(), counts.flagged > first.size() ? ", the first ones" : "");
      list_lines(first);
    }
  }
  return counts;
}

namespace {
std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}
}  // namespace

std::string recorded_path(const io::InputFile& file) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(file.path, ec);
  return ec ? file.path : absolute.lexically_normal().string();
}

void write_run_attributes(const boost::mpi::communicator& comm, h5::OutputFile& file, const std::string& command,
                          const std::string& config_toml, const std::vector<io::InputFile>& inputs,
                          const text::TokenizedShare& share, const LineCounts& counts) {
  std::string created = comm.rank() == 0 ? utc_now() : "";
  boost::mpi::broadcast(comm, created, 0);  // attribute values must agree on all ranks
  // Absolute paths, so that `tdcone export --text` finds the files from any
  // directory; with their sizes and content fingerprints, so that it can tell
  // when a file is no longer the one that was read.
  std::vector<std::string> paths;
  std::vector<std::uint64_t> sizes;
  for (const auto& f : inputs) {
    paths.push_back(recorded_path(f));
    sizes.push_back(f.size);
  }
  file.set_attribute("/", "tdcone_version", std::string(TDCONE_VERSION));
  file.set_attribute("/", "command", command);
  file.set_attribute("/", "config", config_toml);
  file.set_attribute("/", "n_ranks", static_cast<std::uint64_t>(comm.size()));
  file.set_attribute("/", "created", created);
  // Columns, not attributes: an object's attributes hold at most 64 KiB, the
  // sizes of some 8,000 files. Every rank has the list; rank 0 writes it.
  const std::uint64_t n = inputs.size(), mine = comm.rank() == 0 ? n : 0;
  file.create_group("/inputs");
  file.write_column("/inputs/path", comm.rank() == 0 ? paths : std::vector<std::string>(), 0, n);
  file.write_column("/inputs/size", std::span<const std::uint64_t>(sizes).first(mine), 0, n);
  if (share.file_lines.size() == inputs.size()) {
    file.write_column("/inputs/lines", std::span<const std::uint64_t>(share.file_lines).first(mine), 0, n);
    file.write_column("/inputs/fingerprint", std::span<const std::uint64_t>(share.file_fingerprints).first(mine), 0, n);
  }
  file.set_attribute("/", "n_lines", counts.lines);
  file.set_attribute("/", "n_scored", counts.scored);
  file.set_attribute("/", "n_flagged", counts.flagged);
}

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

void write_pairs(const boost::mpi::communicator& comm, h5::OutputFile& file, const text::TokenizedShare& share,
                 const io::FieldSpec& fields, const std::vector<double>& tdcone,
                 const std::vector<std::uint64_t>& rank) {
  const std::uint64_t offset = share.first_pair_id, total = share.total_lines;
  // Decided from the field spec, not local data: every rank must create the same datasets.
  const int columns = 6 + (fields.has_score() ? 1 : 0) + (fields.has_id() ? 1 : 0);
  Progress progress(comm.rank() == 0, "write", "columns");
  int written = 0;
  auto column = [&](const std::string& name, auto rows) {
    file.write_column("/pairs/" + name, rows, offset, total);
    ++written;
    progress.update(written, static_cast<double>(written) / columns, name);
  };
  std::vector<std::uint64_t> pair_id(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) pair_id[i] = offset + i;
  file.create_group("/pairs");
  column("pair_id", std::span<const std::uint64_t>(pair_id));
  column("tdcone", std::span<const double>(tdcone));
  column("rank", std::span<const std::uint64_t>(rank));
  column("flags", std::span<const std::uint8_t>(share.flags));
  column("src_len", std::span<const std::uint32_t>(share.src_len));
  column("tgt_len", std::span<const std::uint32_t>(share.tgt_len));
  if (fields.has_score()) column("score", std::span<const double>(share.scores));
  if (fields.has_id()) column("id", std::cref(share.ids));
  progress.finish(written);
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

}  // namespace tdcone::cli
