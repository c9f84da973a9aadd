#pragma once
// Parallel two-file corpora (--src-file / --tgt-file): line k of the i-th src
// file is the input side of a pair, line k of the i-th tgt file its output
// side; the whole line is the side (no columns), any compression. pair_id is
// the position of the line over the src files in order, as for --input.
//
// Distributed reading (mpi::read_parallel_share) stays distributed for plain
// and zstd files, with no rank reading more than about three shares:
//  1. src and tgt files are each cut into per-rank shares by plan_share,
//     independently; every rank counts the lines its segments own
//     (count_lines: scans for line ends, nothing is kept).
//  2. An all-gather of those counts gives every rank, for every file, its
//     total (a src file and its tgt file must agree) and the first line of
//     every segment (an exclusive scan over the segments of the file).
//  3. A rank reads its src segments as for --input. For a src segment holding
//     lines [a, b) of src file i, it opens tgt file i at the start of the last
//     tgt segment whose first line is <= a (rest_of_file), skips to line a
//     and reads the tgt lines alongside the src lines.
// The skip is at most one tgt share; gzip, xz and bzip2 files, one segment
// each, are read from their start. Streams (pipes, FIFOs) cannot be read
// twice and are refused (check_parallel_files).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"

namespace tdcone::io {

/// Throws UsageError unless `src_files` and `tgt_files` (resolved --src-file
/// and --tgt-file patterns) have the same number of files, at least one, and
/// none is a pipe or FIFO (message names the counts or the file).
void check_parallel_files(const std::vector<InputFile>& src_files, const std::vector<InputFile>& tgt_files);

/// The message of a src file and its tgt file whose line counts differ (an
/// IoError, the same on every rank).
std::string line_count_mismatch(const InputFile& src, std::uint64_t src_lines, const InputFile& tgt,
                                std::uint64_t tgt_lines);

/// The lines `segment` of `file` owns (LineReader's rule), counted without
/// keeping them. Throws IoError like LineReader.
std::uint64_t count_lines(const InputFile& file, const Segment& segment);

/// `from` extended to the end of its file: its lines and all after them.
Segment rest_of_file(const InputFile& file, const Segment& from);

/// Serial reading of a parallel corpus, for one process (export --text, no
/// MPI): the pairs in pair_id order, src file 0 with tgt file 0, then file 1...
///
///   io::ParallelLineReader pairs(io::resolve_inputs(src), io::resolve_inputs(tgt), max_line_bytes);
///   for (io::Line src, tgt; pairs.next(src, tgt);) use(pairs.pair_id(), src.text, tgt.text);
///
/// A line over `max_line_bytes` comes back with too_long set and empty text
/// (as LineReader does). Streams are fine here (each file is read once).
class ParallelLineReader {
 public:
  /// Throws UsageError for different numbers of src and tgt files.
  ParallelLineReader(std::vector<InputFile> src_files, std::vector<InputFile> tgt_files, std::uint64_t max_line_bytes);
  ~ParallelLineReader();
  ParallelLineReader(const ParallelLineReader&) = delete;
  ParallelLineReader& operator=(const ParallelLineReader&) = delete;

  /// The next pair; false after the last. Both views stay valid until the
  /// next call. Throws IoError when a src file and its tgt file end at
  /// different lines (naming both files and both line counts), or on a read error.
  bool next(Line& src, Line& tgt);

  /// Of the pair last returned: its pair_id, file index, 1-based line number in that file.
  std::uint64_t pair_id() const { return pair_id_; }
  std::size_t file() const { return file_; }
  std::uint64_t line() const { return line_; }

 private:
  bool open_next_file();

  std::vector<InputFile> src_files_, tgt_files_;
  std::uint64_t max_line_bytes_;
  std::unique_ptr<LineReader> src_, tgt_;
  std::size_t file_ = 0;
  std::uint64_t line_ = 0, pair_id_ = 0, pairs_ = 0;
  bool started_ = false;
};

}  // namespace tdcone::io
