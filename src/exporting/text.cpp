// The input text of a run's lines, read again and checked for `tdcone export`.
#include "tdcone/exporting/text.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>

#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_fingerprint.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/io/parallel_files.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/results/checks.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::exporting {

namespace {

// Export reads lines up to this long whole (the run's --max-line-bytes can be
// smaller: such a line was a bad line, and it keeps its raw text).
constexpr std::uint64_t kReadLimit = std::uint64_t{1} << 30;

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

/// Calls `visit(file, line, tgt)` for every pair of the input, in order: a
/// line of `files` (tgt null), or, when the first `parallel_files` files are
/// src files and the others their tgt files, a src line and its tgt line
/// (`file`: the src file's index; the tgt file's is file + parallel_files).
void for_each_input_line(const std::vector<io::InputFile>& files, std::size_t parallel_files,
                         const std::function<void(std::size_t, const io::Line&, const io::Line*)>& visit) {
  if (parallel_files > 0) {
    io::ParallelLineReader pairs(std::vector<io::InputFile>(files.begin(), files.begin() + parallel_files),
                                 std::vector<io::InputFile>(files.begin() + parallel_files, files.end()), kReadLimit);
    for (io::Line src, tgt; pairs.next(src, tgt);) visit(pairs.file(), src, &tgt);
    return;
  }
  for (const io::Segment& segment : io::plan_share(files, 0, 1)) {
    io::LineReader reader(files[segment.file], segment, kReadLimit);
    io::Line line;
    while (reader.next(line)) visit(segment.file, line, nullptr);
  }
}

}  // namespace

RunInputs recorded_inputs(const hdf5::Reader& reader, const std::string& result, bool selection,
                          const std::vector<std::string>& inputs, std::optional<select::Side> side,
                          const RunConfigReader& read_config) {
  RunInputs run;
  run.result = result;
  namespace root = schema::root;
  const auto attributes = reader.attributes(root::group);
  const auto has = [&](const schema::Attribute& attribute) {
    return std::ranges::count(attributes, std::string(attribute.name)) > 0;
  };
  results::RecordedFiles recorded = results::recorded_files(reader);
  if (!recorded.given || !has(root::n_lines))
    throw IoError(cat(result, " does not record the input of its run (no /inputs, or no 'n_lines' attribute on /)"));
  run.recorded_paths = std::move(recorded.paths);
  run.overridden = !inputs.empty();
  run.paths = run.overridden ? inputs : run.recorded_paths;
  run.sizes = std::move(recorded.sizes);
  run.lines = std::move(recorded.lines);
  run.fingerprints = std::move(recorded.fingerprints);
  run.n_lines = reader.attribute_uint(root::group, root::n_lines.name);
  const RunSettings settings =
      read_config(has(root::config) ? reader.attribute_string(root::group, root::config.name) : "", result);
  run.corpus = settings.corpus;
  if (selection) run.side = side ? *side : settings.side;
  if (run.corpus.parallel()) run.parallel_files = run.recorded_paths.size() / 2;
  return run;
}

std::size_t LineTexts::find(std::uint64_t pair_id) const {
  return static_cast<std::size_t>(std::lower_bound(pair_ids_.begin(), pair_ids_.end(), pair_id) - pair_ids_.begin());
}

LineTexts::Piece LineTexts::store(std::string_view text) {
  const Piece piece{arena_.size(), text.size()};
  arena_.append(text);
  return piece;
}

void read_line_texts(const RunInputs& run, const TextRequest& request,
                     const std::function<void(std::size_t, const LineText&)>& visit) {
  namespace fs = std::filesystem;
  const bool checked = !run.fingerprints.empty() && run.fingerprints.size() == run.recorded_paths.size() &&
                       run.sizes.size() == run.fingerprints.size() && run.lines.size() == run.fingerprints.size();
  if (!run.overridden)
    for (const std::string& path : run.paths) {
      std::error_code ec;
      if (!fs::exists(path, ec))
        throw UsageError(cat(run.result, " was computed from ", path,
                             ", which is missing (moved? give its new path with ", Option::input, ")"));
    }
  if (run.paths.empty()) throw UsageError(cat(run.result, " records no input files; give them with ", Option::input));
  std::vector<io::InputFile> files = io::resolve_inputs(run.paths);
  // Looked up, never opened: a FIFO would wait for a writer, forever.
  for (const io::InputFile& file : files)
    if (const std::string kind = file.stream ? io::not_a_regular_file(file.path) : ""; !kind.empty())
      throw UsageError(run.overridden
                           ? cat(Option::input, " ", file.path, " is ", kind, ": export reads the text of the run again and "
                                 "checks it against what the run recorded, from a regular file; save the text to a "
                                 "file and give that")
                           : cat(run.result, " was computed from ", file.path, ", which is ", kind, ": the run read "
                                 "its text once, as a stream, and it cannot be read again; give a file with the same "
                                 "text with ", Option::input, ", or rerun tdcone score on a regular file"));
  if (run.parallel_files > 0 && files.size() != 2 * run.parallel_files)
    throw UsageError(cat(run.result, " was computed from ", run.parallel_files, " ", Option::src_file, " and as many ",
                         Option::tgt_file, " files: ", Option::input, " must give ", 2 * run.parallel_files,
                         " files, the src files then the tgt files"));
  // Which recorded file a file read stands for, in messages.
  auto named = [&](std::size_t k) {
    const std::string& path = files[k].path;
    return run.overridden && k < run.recorded_paths.size() ? cat(path, " (given for ", run.recorded_paths[k], ")")
                                                           : path;
  };
  auto not_the_input = [&](std::size_t k, const std::string& what) {
    return UsageError(cat(named(k), " is not the input ", run.result, " was computed from: ", what,
                          run.overridden ? "" : cat("; if the original is elsewhere now, give its path with ", Option::input)));
  };
  std::vector<bool> grown(files.size()), size_unknown(files.size());
  if (checked) {
    if (files.size() != run.sizes.size()) {
      std::string list;
      for (const auto& path : run.recorded_paths) list += cat(list.empty() ? "" : ", ", path);
      throw UsageError(cat(Option::input, " gives ", files.size(), " file(s), but ", run.result, " was computed from ",
                           run.sizes.size(), ": ", list));
    }
    for (std::size_t k = 0; k < files.size(); ++k) {
      // An older tdcone recorded a stream (a pipe, FIFO, /dev/stdin) as 0
      // bytes: its size is unknown; its lines and fingerprint are checked.
      size_unknown[k] = run.sizes[k] == 0 && run.lines[k] > 0;
      if (size_unknown[k]) continue;
      // A plain file appended to since the run: the run read the recorded
      // prefix (mpi::agreed_inputs), and so does this; the fingerprints check it.
      grown[k] = files[k].size > run.sizes[k] && files[k].compression == io::Compression::none && !files[k].stream;
      if (grown[k]) files[k].size = run.sizes[k];
      if (files[k].size != run.sizes[k])
        throw not_the_input(k, cat("its size differs (", files[k].size, " bytes, recorded ", run.sizes[k], ")"));
    }
  } else if (request.note_unchecked) {
    std::fprintf(stderr,
                 "tdcone export: note: %s records no sizes or content fingerprints of its inputs (written by an older "
                 "tdcone): the text is joined without checking that the files are the ones the run read\n",
                 run.result.c_str());
  }

  const bool selection = run.side.has_value();
  const text::ReadOptions read =
      selection ? run.corpus.line_read_options(*run.side) : run.corpus.read_options();
  io::RecordParser parser(read.fields);
  io::Record record;
  std::vector<io::LineFingerprint> fingerprints(files.size());
  std::uint64_t pair_id = 0;
  std::size_t want = 0;  // next entry of request.pair_ids
  std::string mismatch;  // the first requested good line that does not parse
  std::string joined, pasted;
  const auto over_limit = [&](const io::Line& line) {
    return line.too_long || line.text.size() > run.corpus.max_line_bytes;
  };
  for_each_input_line(files, run.parallel_files, [&](std::size_t file, const io::Line& line, const io::Line* tgt_line) {
    const bool too_long = over_limit(line);
    fingerprints[file].add(line.text, too_long);
    if (tgt_line) fingerprints[file + run.parallel_files].add(tgt_line->text, over_limit(*tgt_line));
    if (want < request.pair_ids.size() && request.pair_ids[want] == pair_id) {
      LineText text;
      const bool bad = request.bad[want];
      // A pair of a parallel corpus is its two lines, pasted as a TSV line.
      std::string_view line_text = line.text;
      if (tgt_line) line_text = pasted.assign(line.text).append("\t").append(tgt_line->text);
      if (request.raw || bad) text.raw = line_text;
      if (request.fields && !bad) {
        record.src = line.text;
        if (tgt_line) record.tgt = tgt_line->text;
        const std::string reason = too_long || (tgt_line && over_limit(*tgt_line))
                                       ? cat("line longer than ", Option::max_line_bytes)
                                   : tgt_line ? std::string()  // the whole lines are the sides
                                              : parser.parse(line.text, record);
        if (!reason.empty()) {
          if (mismatch.empty()) mismatch = cat(files[file].path, ":", fingerprints[file].lines(), ": ", reason);
        } else {
          std::string_view src = record.src, tgt = record.tgt;
          if (run.corpus.reverse) std::swap(src, tgt);
          if (selection && run.side == select::Side::both) {  // the line is src then tgt, as the run tokenized it
            joined.assign(src).append(" ").append(tgt);
            text.src = joined;
          } else if (selection) {
            text.src = src;
          } else {
            text.src = src;
            text.tgt = tgt;
          }
        }
      }
      if (visit) visit(want, text);
      ++want;
    }
    ++pair_id;
  });
  if (checked)
    for (std::size_t k = 0; k < files.size(); ++k) {
      const std::string what = grown[k]          ? cat("it has grown since the run, and its first ", run.sizes[k],
                                                       " bytes (the part the run read)")
                               : size_unknown[k] ? std::string("the run read a stream of unrecorded size, and it")
                                                 : std::string("its size is the same, but it");
      if (fingerprints[k].lines() != run.lines[k])
        throw not_the_input(k, cat(what, grown[k] ? " hold " : " has ", fingerprints[k].lines(), " lines (recorded ",
                                   run.lines[k], ")"));
      const std::uint64_t sum = fingerprints[k].sum();
      if (sum != run.fingerprints[k])
        throw not_the_input(k, cat(what, grown[k] ? " differ" : "s content differs", " (fingerprint ", hex(sum),
                                   ", recorded ", hex(run.fingerprints[k]), ")"));
    }
  if (pair_id != run.n_lines)
    throw UsageError(cat("the input files hold ", pair_id, " lines, but ", run.result, " was computed from ", run.n_lines,
                         ": not the input it read?"));
  if (!mismatch.empty())
    throw UsageError(cat(mismatch, ": the run read this line as a good one, with the reader settings it recorded: not "
                                   "the input it read?"));
}

LineTexts load_line_texts(const RunInputs& run, const TextRequest& request) {
  LineTexts texts;
  texts.pair_ids_ = request.pair_ids;
  texts.entries_.reserve(request.pair_ids.size());
  if (run.n_lines > 0) {  // the kept share of the input's bytes, so the arena is not grown by doubling
    std::uint64_t bytes = 0;
    std::error_code ec;
    for (const std::string& path : run.paths) bytes += std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
    texts.arena_.reserve(static_cast<std::size_t>(static_cast<double>(bytes) *
                                                  std::min(1.0, double(request.pair_ids.size()) / double(run.n_lines))));
  }
  read_line_texts(run, request, [&](std::size_t, const LineText& text) {
    texts.entries_.push_back({texts.store(text.raw), texts.store(text.src), texts.store(text.tgt)});
  });
  return texts;
}

}  // namespace tdcone::exporting
