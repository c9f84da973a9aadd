#pragma once
// The input text of a run's lines, read again for `tdcone export --text` /
// `--lines-only`: the files the run recorded (or --input), read with the
// run's reader settings, checked against the recorded sizes and content
// fingerprints (io::LineFingerprint).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/config/job_config.hpp"

namespace tdcone::exporting {

/// The reader settings a run recorded in its effective configuration.
struct RunSettings {
  config::CorpusConfig corpus;                   // a setting the run did not record keeps its default
  select::Side side = select::Side::src;  // a selection's --side
};

/// Reads the settings from a run's configuration `config` (its TOML text) of
/// the result `result` (for messages); throws IoError when it is not TOML. The
/// command line owns that format: it gives the jobs this function.
using RunConfigReader = std::function<RunSettings(const std::string& config, const std::string& result)>;

/// What a result file says about the input its run read.
struct RunInputs {
  std::string result;                        // the result file, for messages
  std::vector<std::string> recorded_paths;   // attribute `inputs`
  std::vector<std::string> paths;            // what to read: --input (patterns) or recorded_paths
  bool overridden = false;                   // paths came from --input
  std::vector<std::uint64_t> sizes, lines, fingerprints;  // per recorded file; empty if not recorded
  std::uint64_t n_lines = 0;                 // attribute n_lines: the lines of all inputs
  config::CorpusConfig corpus;                       // reader settings from the run's config
  std::optional<select::Side> side;          // a selection's --side (the text of a line); none for pairs
  std::size_t parallel_files = 0;            // a --src-file/--tgt-file run: paths are its src files, then as many tgt files
};

/// Reads `/` of `reader` (file `result`): inputs, sizes, fingerprints, config.
/// `inputs`: --input, replacing the recorded paths; `side`: --side, replacing the run's.
RunInputs recorded_inputs(const hdf5::Reader& reader, const std::string& result, bool selection,
                          const std::vector<std::string>& inputs, std::optional<select::Side> side,
                          const RunConfigReader& read_config);

/// The text of chosen lines.
struct TextRequest {
  std::vector<std::uint64_t> pair_ids;  // sorted, unique
  std::vector<bool> bad;                // per entry of pair_ids: flagged bad by the run (flags & 1)
  bool raw = false;                     // keep every line's raw bytes (--lines-only); bad lines' always
  bool fields = false;                  // parse src/tgt (or a selection's text) of good lines
  bool note_unchecked = true;           // say on stderr when the inputs cannot be checked (an old result)
};

/// One requested line: its raw bytes (when kept) and parsed text (when asked
/// for; a selection's text is in src). Valid during the call that gives it.
struct LineText {
  std::string_view raw, src, tgt;
};

class LineTexts {
 public:
  LineText text(std::size_t k) const { return {raw(k), src(k), tgt(k)}; }
  /// Index of `pair_id` among the requested ones (it must be one of them).
  std::size_t find(std::uint64_t pair_id) const;
  /// The line as it is in the file (without its line end), if kept.
  std::string_view raw(std::size_t k) const { return view(entries_[k].raw); }
  /// The parsed src and tgt, after the run's --reverse (for a selection: its text in src).
  std::string_view src(std::size_t k) const { return view(entries_[k].src); }
  std::string_view tgt(std::size_t k) const { return view(entries_[k].tgt); }

 private:
  friend LineTexts load_line_texts(const RunInputs&, const TextRequest&);
  struct Piece {
    std::uint64_t offset = 0, size = 0;
  };
  struct Entry {
    Piece raw, src, tgt;
  };
  std::string_view view(const Piece& p) const { return std::string_view(arena_).substr(p.offset, p.size); }
  Piece store(std::string_view text);

  std::vector<std::uint64_t> pair_ids_;
  std::vector<Entry> entries_;
  std::string arena_;  // all kept text, one allocation instead of one per line
};

/// Reads every input line once (the whole files: the fingerprint covers
/// them), keeping the requested ones. Throws UsageError naming the file when
/// an input is missing, or its size, line count or content fingerprint
/// differs from the recorded one, or the inputs hold another number of lines
/// than the run read. A result without fingerprints (an older tdcone) is
/// joined unchecked, with a note on standard error.
LineTexts load_line_texts(const RunInputs& run, const TextRequest& request);

/// The same checks, and `visit(k, text)` for the k-th requested line as it is
/// read, keeping nothing (a big export in input order). The content checks
/// come after the last line: visit only what can be undone, or read the
/// inputs once with an empty request (which only checks them) first.
void read_line_texts(const RunInputs& run, const TextRequest& request,
                     const std::function<void(std::size_t, const LineText&)>& visit);

}  // namespace tdcone::exporting
