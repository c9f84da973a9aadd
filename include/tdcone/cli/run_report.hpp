#pragma once
// What every command writes about its run: root attributes, bad-line report.
#include <boost/mpi/communicator.hpp>

#include <optional>
#include <string>
#include <vector>

#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::cli {

struct LineCounts {
  std::uint64_t lines = 0, scored = 0, flagged = 0;
};

/// What a command does with bad lines (SPEC §2, §9).
struct BadLinePolicy {
  std::string on_bad_line = "skip";  // --on-bad-line: skip (flag and go on) or fail (stop at the first)
  double max_bad_fraction = 0.5;     // --max-bad-fraction: more bad lines than this fraction of the lines is an error
  std::string hint;                  // the options that say how a line is read, for the error messages
  // The options of the same input as two one-sided sets of files ("--src-file/--tgt-file"), suggested
  // when (nearly) every line is bad for want of a second column; empty: none.
  std::string two_file_options;
};

/// "a.tsv, b.tsv (the corpus, --input)": an input named in messages.
std::string describe_input(const std::vector<io::InputFile>& files, const std::string& what);
/// " (first: a.tsv:1: invalid JSON; a.tsv:2: missing column 2; ...)": the first three of `first`.
std::string first_reasons(const std::vector<text::BadLine>& first);
/// When a line of `first` is invalid UTF-8: "invalid UTF-8: if a.tsv is
/// Latin-1, convert it: iconv -f latin1 -t utf-8 a.tsv > a.tsv.utf8"; else "".
std::string encoding_hint(const std::vector<text::BadLine>& first);
/// "  a.tsv:1: invalid JSON", a line each, on standard error; then the encoding_hint, if any.
void list_lines(const std::vector<text::BadLine>& lines);

/// Totals over all ranks of an input `what` ("the corpus, --input") read from
/// `files`. Stops every rank (exit status 1, naming the files and the first
/// bad lines) when the input has no usable line (no line at all, or only bad
/// ones), when more than `max_bad_fraction` of its lines are bad, or, with
/// --on-bad-line fail, at the first bad line. Otherwise rank 0 lists the first
/// bad lines on standard error (with --quiet only their count). Every rank
/// decides from the same global counts. Collective.
LineCounts account_lines(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                         const std::vector<io::InputFile>& files, const BadLinePolicy& policy, const std::string& what);

/// The path of `file` as a run records it (`/inputs` `path`): absolute, normalized.
std::string recorded_path(const io::InputFile& file);

/// Root attributes of SPEC §8, and the group `/inputs`: a row per input file,
/// `path` (absolute), `size` (bytes), `lines` and `fingerprint`
/// (io::LineFingerprint), from `share` (the share read from `inputs`). Collective.
void write_run_attributes(const boost::mpi::communicator& comm, h5::OutputFile& file, const std::string& command,
                          const std::string& config_toml, const std::vector<io::InputFile>& inputs,
                          const text::TokenizedShare& share, const LineCounts& counts);

/// The major version of a tdcone_version ("0.1.0": 0), or nullopt when the
/// text is not a version: MAJOR.MINOR[.PATCH...], digits, then optionally a
/// '-' or '+' and anything ("1.0.0-rc1").
std::optional<std::uint64_t> version_major(const std::string& version);

/// Why this tdcone does not read a result whose root attribute tdcone_version
/// is `version` (nullopt: there is none), or "": the attribute must be there,
/// be a version, and its major not be newer than this build's (TDCONE_VERSION,
/// the CMake project version). Results of older versions are read.
std::string result_version_problem(const std::optional<std::string>& version);

/// Throws IoError (exit status 1) unless `reader` (the file `path`) is a tdcone
/// result this tdcone reads: see result_version_problem.
void check_tdcone_result(const h5::Reader& reader, const std::string& path);

/// Throws IoError (exit status 1), saying what writes it, unless the result
/// `path` has the table `group` ("/pairs") with every column tdcone always
/// writes into it (SPEC §8). `need`: who needs it, for the message ("export",
/// "--rank-by tdcone"). A group tdcone does not write is not checked.
void check_result_table(const h5::Reader& reader, const std::string& path, const std::string& group,
                        const std::string& need);

/// The `/pairs` table (one row per input line of this rank's share), with a
/// progress line per column written on rank 0. Collective.
void write_pairs(const boost::mpi::communicator& comm, h5::OutputFile& file, const text::TokenizedShare& share,
                 const io::FieldSpec& fields, const std::vector<double>& tdcone,
                 const std::vector<std::uint64_t>& rank);

/// What a result records of its run's input files: `/inputs`, or the root
/// attributes `inputs`, `input_sizes`, `input_lines`, `input_fingerprints` of
/// an older tdcone's result. Empty vectors for what is not recorded.
struct RecordedFiles {
  bool given = false;  // the file list is recorded
  std::vector<std::string> paths;
  std::vector<std::uint64_t> sizes, lines, fingerprints;
};
RecordedFiles recorded_files(const h5::Reader& reader);

}  // namespace tdcone::cli
