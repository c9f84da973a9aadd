#include "tdcone/io/parallel_files.hpp"

#include <sys/stat.h>

#include "tdcone/core/error.hpp"

namespace tdcone::io {

void check_parallel_files(const std::vector<InputFile>& src_files, const std::vector<InputFile>& tgt_files) {
  if (src_files.size() != tgt_files.size())
    throw UsageError(cat(Option::src_file, " names ", src_files.size(), " file(s) and ", Option::tgt_file, " ", tgt_files.size(),
                         ": they must name as many (after glob expansion), matched in order"));
  if (src_files.empty()) throw UsageError(cat(Option::src_file, " and ", Option::tgt_file, " name no file"));
  for (const auto* files : {&src_files, &tgt_files})
    for (const InputFile& f : *files)
      if (struct stat st; f.stream && (::stat(f.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)))
        throw UsageError(cat(f.path, ": ", Option::src_file, " and ", Option::tgt_file, " must be regular files (read "
                             "twice: counted, then read); a pipe or FIFO can be read only once"));
}

std::string line_count_mismatch(const InputFile& src, std::uint64_t src_lines, const InputFile& tgt,
                                std::uint64_t tgt_lines) {
  return cat(Option::src_file, " ", src.path, " has ", src_lines, " line(s) but its ", Option::tgt_file, " ", tgt.path, " has ", tgt_lines,
             ": line k of one must pair with line k of the other");
}

std::uint64_t count_lines(const InputFile& file, const Segment& segment) {
  // A limit of 0 bytes: every non-empty line is skipped to its end, never buffered.
  LineReader reader(file, segment, 0);
  std::uint64_t lines = 0;
  for (Line line; reader.next(line);) ++lines;
  return lines;
}

Segment rest_of_file(const InputFile& file, const Segment& from) {
  Segment s = from;
  s.end = file.stream ? 1 : file.compression == Compression::none ? file.size : file.frame_offsets.size() - 1;
  return s;
}

namespace {

// A whole file as one segment.
Segment whole_file(const std::vector<InputFile>& files, std::size_t i) { return rest_of_file(files[i], {i, 0, 0}); }

}  // namespace

ParallelLineReader::ParallelLineReader(std::vector<InputFile> src_files, std::vector<InputFile> tgt_files,
                                       std::uint64_t max_line_bytes)
    : src_files_(std::move(src_files)), tgt_files_(std::move(tgt_files)), max_line_bytes_(max_line_bytes) {
  if (src_files_.size() != tgt_files_.size())
    throw UsageError(cat(Option::src_file, " names ", src_files_.size(), " file(s) and ", Option::tgt_file, " ", tgt_files_.size(),
                         ": they must name as many, matched in order"));
}

ParallelLineReader::~ParallelLineReader() = default;

bool ParallelLineReader::open_next_file() {
  if (started_) ++file_;
  started_ = true;
  src_.reset();
  tgt_.reset();
  if (file_ >= src_files_.size()) return false;
  src_ = std::make_unique<LineReader>(src_files_[file_], whole_file(src_files_, file_), max_line_bytes_);
  tgt_ = std::make_unique<LineReader>(tgt_files_[file_], whole_file(tgt_files_, file_), max_line_bytes_);
  line_ = 0;
  return true;
}

bool ParallelLineReader::next(Line& src, Line& tgt) {
  for (;;) {
    if (!src_ && !open_next_file()) return false;
    const bool have_src = src_->next(src), have_tgt = tgt_->next(tgt);
    if (have_src && have_tgt) {
      ++line_;
      pair_id_ = pairs_++;
      return true;
    }
    if (have_src != have_tgt) {  // one file ends first: count the rest of the other for the message
      std::uint64_t src_lines = line_ + (have_src ? 1 : 0), tgt_lines = line_ + (have_tgt ? 1 : 0);
      for (Line rest; have_src && src_->next(rest);) ++src_lines;
      for (Line rest; have_tgt && tgt_->next(rest);) ++tgt_lines;
      throw IoError(line_count_mismatch(src_files_[file_], src_lines, tgt_files_[file_], tgt_lines));
    }
    src_.reset();  // both ended: on to the next pair of files
  }
}

}  // namespace tdcone::io
