#pragma once
// Streams the lines owned by one segment, decompressing zstd, gzip, xz or
// bzip2 on the fly.
// Lines end at "\n", "\r\n" or a lone "\r" (files from Unix, Windows and old
// Mac tools read alike); a UTF-8 byte order mark at a file's start is dropped.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/io/input_files.hpp"

namespace tdcone::io {

struct Line {
  std::string_view text;  // without its line end; valid until the next call
  bool too_long = false;  // longer than max_line_bytes: text is empty, the line was skipped to its end
};

class LineReader {
 public:
  /// Opens `file` for the lines of `segment`. Throws IoError on read errors,
  /// corrupt or truncated compressed data ("PATH: corrupt gzip data: ..."),
  /// or a file that ends before its recorded `size` (cut while it is read).
  LineReader(const InputFile& file, const Segment& segment, std::uint64_t max_line_bytes);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// Next owned line; false at the end of the segment. A final line without
  /// a line end counts; an empty file (or one of just a BOM) or segment has no lines.
  bool next(Line& line);

  /// Progress in on-disk bytes of this segment consumed so far (for ETA).
  std::uint64_t bytes_consumed() const;

  /// Of a stream: the bytes it delivered so far, all of them once next()
  /// returned false (what the run records as its size). 0 for a file.
  std::uint64_t stream_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The first line that is not empty of `files` read in order from their start
/// (a peek, the same whatever the number of ranks), or nullopt when there is
/// none, when a pipe or FIFO comes first (it cannot be read twice), or when
/// that line is over `max_line_bytes`. Throws IoError like LineReader.
std::optional<std::string> first_nonempty_line(const std::vector<InputFile>& files, std::uint64_t max_line_bytes);

}  // namespace tdcone::io
