#include "tdcone/io/input_files.hpp"

#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "decoders.hpp"
#include "posix_file.hpp"
#include "tdcone/core/error.hpp"
#include "zstd_format.hpp"

namespace tdcone::io {

namespace {

constexpr char kStandardInput[] = "/dev/stdin";

std::vector<std::string> expand(const std::string& pattern) {
  if (pattern == "-") return {kStandardInput};
  if (pattern.find_first_of("*?[") == std::string::npos) {
    struct stat st;
    if (::stat(pattern.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
      throw UsageError(cat("input file not found: ", pattern));
    return {pattern};  // other problems are reported by inspect()
  }
  glob_t matches{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &matches);
  std::vector<std::string> paths(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
  ::globfree(&matches);
  if (rc == GLOB_NOMATCH) throw UsageError(cat("no file matches ", pattern));
  if (rc != 0) throw UsageError(cat("cannot expand ", pattern, ": read error"));
  // Byte order, not the locale's collation, so every rank and machine agrees.
  std::sort(paths.begin(), paths.end());
  return paths;
}

[[noreturn]] void throw_corrupt(const std::string& path, std::uint64_t offset, const char* what) {
  throw IoError(cat(path, ": corrupt zstd file at byte ", offset, ": ", what));
}

// Size of a zstd frame header (RFC 8878 §3.1.1.1) from its descriptor byte.
std::uint64_t frame_header_size(unsigned char descriptor) {
  const unsigned fcs_flag = descriptor >> 6;
  const bool single_segment = descriptor & 0x20;
  const unsigned dictionary_flag = descriptor & 0x03;
  static constexpr unsigned kDictionaryIdBytes[] = {0, 1, 2, 4};
  static constexpr unsigned kContentSizeBytes[] = {0, 2, 4, 8};
  const unsigned content_size_bytes = fcs_flag == 0 && single_segment ? 1 : kContentSizeBytes[fcs_flag];
  return 4 + 1 + (single_segment ? 0 : 1) + kDictionaryIdBytes[dictionary_flag] + content_size_bytes;
}

// Walks the frames and block headers with small preads: the cost is a few
// bytes per 128 KiB block, never the compressed content.
std::vector<std::uint64_t> scan_frames(const PosixFile& file, std::uint64_t size) {
  std::vector<std::uint64_t> offsets;
  std::uint64_t pos = 0;
  while (pos < size) {
    unsigned char head[8];
    const std::size_t got = file.read_at(head, std::min<std::uint64_t>(sizeof head, size - pos), pos);
    if (got < 5) throw_corrupt(file.path(), pos, "truncated frame header");
    const std::uint32_t magic = little_endian(head, 4);
    if (is_skippable_magic(magic)) {
      if (got < 8) throw_corrupt(file.path(), pos, "truncated skippable frame");
      pos += 8 + std::uint64_t{little_endian(head + 4, 4)};
      if (pos > size) throw_corrupt(file.path(), pos, "truncated skippable frame");
      continue;
    }
    if (magic != kZstdMagic) throw_corrupt(file.path(), pos, "bad frame magic");
    const unsigned char descriptor = head[4];
    if (descriptor & 0x08) throw_corrupt(file.path(), pos, "reserved bit set in frame header");
    offsets.push_back(pos);

    std::uint64_t block = pos + frame_header_size(descriptor);
    for (bool last = false; !last;) {
      unsigned char bytes[3];
      if (block + 3 > size || file.read_at(bytes, 3, block) != 3) throw_corrupt(file.path(), block, "truncated block");
      const std::uint32_t header = little_endian(bytes, 3);
      last = header & 1;
      const unsigned type = (header >> 1) & 3;  // 0 raw, 1 RLE, 2 compressed, 3 reserved
      const std::uint32_t block_size = header >> 3;
      if (type == 3) throw_corrupt(file.path(), block, "reserved block type");
      block += 3 + (type == 1 ? 1 : block_size);  // an RLE block stores its one repeated byte
    }
    const bool has_checksum = descriptor & 0x04;
    pos = block + (has_checksum ? 4 : 0);
    if (pos > size) throw_corrupt(file.path(), size, "truncated frame");
  }
  offsets.push_back(size);
  return offsets;
}

// The file's entry: path, size, identity, and whether it is a stream.
InputFile look_up(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw UsageError(cat("cannot open input file ", path, ": ", std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw UsageError(cat("input is a directory: ", path));
  if (::access(path.c_str(), R_OK) != 0) throw UsageError(cat("cannot read input file ", path, ": ", std::strerror(errno)));
  InputFile input;
  input.path = path;
  input.device = st.st_dev;
  input.inode = st.st_ino;
  input.mtime_ns = std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
  // A pipe or FIFO has no size to cut, and procfs files say 0: left unopened
  // here (a FIFO would block, and the bytes read would be gone for the reader).
  input.stream = !S_ISREG(st.st_mode) || st.st_size == 0;
  if (!input.stream) input.size = static_cast<std::uint64_t>(st.st_size);
  return input;
}

InputFile inspect(const std::string& path) {
  InputFile input = look_up(path);
  if (input.stream) return input;
  const PosixFile file(path);
  unsigned char magic[kMagicBytes];
  const std::size_t got = file.read_at(magic, sizeof magic, 0);
  // A result given back as a corpus would be read as a few "missing column" lines.
  static constexpr unsigned char kHdf5Signature[] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (got >= sizeof kHdf5Signature && std::equal(std::begin(kHdf5Signature), std::end(kHdf5Signature), magic))
    throw UsageError(cat(path, " is an HDF5 file (a tdcone result?), not a text corpus; give the text files (`tdcone info ",
                         path, "` lists the inputs a result was made from)"));
  input.compression = detect_compression(magic, got);
  if (input.compression == Compression::zstd)
    input.frame_offsets = scan_frames(file, input.size);
  else if (input.compression != Compression::none)
    input.frame_offsets = {0, input.size};
  return input;
}

// `describe` of every path the patterns name, in order.
std::vector<InputFile> each_file(const std::vector<std::string>& patterns, InputFile (*describe)(const std::string&)) {
  std::vector<InputFile> files;
  for (const std::string& pattern : patterns)
    for (const std::string& path : expand(pattern)) files.push_back(describe(path));
  return files;
}

// floor(total * k / n) without overflow: total = q*n + m, so it is q*k + m*k/n.
std::uint64_t cut(std::uint64_t total, int k, int n) {
  const std::uint64_t q = total / n, m = total % n;
  return q * k + m * k / n;
}

}  // namespace

const char* compression_name(Compression compression) {
  switch (compression) {
    case Compression::zstd: return "zstd";
    case Compression::gzip: return "gzip";
    case Compression::xz: return "xz";
    case Compression::bzip2: return "bzip2";
    case Compression::none: break;
  }
  return "plain";
}

std::vector<std::string> expand_pattern(const std::string& pattern) { return expand(pattern); }

std::vector<InputFile> resolve_inputs(const std::vector<std::string>& patterns) {
  return each_file(patterns, inspect);
}

std::vector<InputFile> stat_inputs(const std::vector<std::string>& patterns) { return each_file(patterns, look_up); }

namespace {

enum class Change { none, other_file, shorter, modified };

// How `seen` differs from `reference`, the same entry looked up elsewhere or
// earlier: the rules of how_files_differ (both streams: no change).
Change compare_files(const InputFile& seen, const InputFile& reference, bool same_host) {
  if (seen.stream || reference.stream) return Change::none;
  const bool same_inode = seen.inode == reference.inode && (!same_host || seen.device == reference.device);
  const bool same_stamp = seen.size == reference.size && seen.mtime_ns == reference.mtime_ns;
  if (!same_inode && !(same_stamp && !same_host)) return Change::other_file;
  if (seen.size < reference.size) return Change::shorter;
  if (seen.size == reference.size ? seen.mtime_ns != reference.mtime_ns : seen.mtime_ns < reference.mtime_ns)
    return Change::modified;
  return Change::none;
}

}  // namespace

std::string how_files_differ(const InputFile& seen, const InputFile& reference, bool same_host) {
  if (seen.path != reference.path) return cat("the file is ", seen.path, " here but ", reference.path, " there");
  if (seen.stream != reference.stream)
    return seen.stream ? "it is a stream (pipe, FIFO or empty) here but a file there" : "it is a stream there";
  const auto identity = [&](const InputFile& f) {
    return cat(same_host ? cat("device ", f.device, ", ") : std::string(), "inode ", f.inode, ", ", f.size, " bytes");
  };
  switch (compare_files(seen, reference, same_host)) {
    case Change::other_file:
      return cat("it is another file here (", identity(seen), ") than there (", identity(reference), ")");
    case Change::shorter:
      return cat("it has ", seen.size, " bytes here but ", reference.size, " there (cut or rewritten while the job starts?)");
    case Change::modified:
      return cat("it was modified at another time here than there (", seen.size, " bytes here, ", reference.size,
                 " there): rewritten while the job starts?");
    case Change::none: break;
  }
  return "";
}

std::string how_file_changed(const InputFile& now, const InputFile& recorded, bool same_host) {
  if (recorded.stream) return "";
  if (now.stream) {  // an empty regular file is looked up as a stream
    const std::string kind = not_a_regular_file(now.path);
    return kind.empty() ? cat("it was cut: it has 0 bytes now, but ", recorded.size, " when the job started")
                        : cat("it is ", kind, " now");
  }
  switch (compare_files(now, recorded, same_host)) {
    case Change::other_file:
      return cat("it was replaced by another file (inode ", recorded.inode, " at the start, ", now.inode, " now)");
    case Change::shorter:
      return cat("it was cut: it has ", now.size, " bytes now, but ", recorded.size, " when the job started");
    case Change::modified: return "it was rewritten (modified, and not only appended to)";
    case Change::none: break;
  }
  return "";
}

void check_unchanged(const InputFile& recorded, bool same_host) {
  if (recorded.stream) return;
  std::string how;
  try {
    how = how_file_changed(look_up(recorded.path), recorded, same_host);
  } catch (const UsageError& error) {  // removed, or no longer readable
    how = cat("it cannot be looked up now (", error.what(), ")");
  }
  if (!how.empty()) throw IoError(changed_while_read(recorded.path, how));
}

std::string changed_while_read(const std::string& path, const std::string& how) {
  return cat(path, " changed while the job read it: ", how,
             ". The lines read are not those of one file: leave it unchanged while tdcone reads it (or give a copy), "
             "then run again");
}

std::string not_a_regular_file(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return "";
  return file_kind(st.st_mode);
}

std::vector<Segment> plan_share(const std::vector<InputFile>& files, int rank, int n_ranks) {
  std::uint64_t total = 0, streams_end = 0;
  for (const InputFile& f : files) {
    if (f.stream) streams_end = total;
    total += f.size;
  }
  // Rank 0 reads every stream (under mpirun only it has the real stdin) and,
  // so that its lines stay the first ones, all the bytes before the last one.
  const auto bound = [&](int k) { return k == 0 ? 0 : std::max(cut(total, k, n_ranks), streams_end); };
  const std::uint64_t lo = bound(rank), hi = bound(rank + 1);

  std::vector<Segment> segments;
  std::uint64_t base = 0;  // offset of this file in the concatenation
  for (std::size_t i = 0; i < files.size(); ++i) {
    const InputFile& f = files[i];
    if (f.stream) {
      if (rank == 0) segments.push_back({i, 0, 1});
      continue;
    }
    const auto local = [&](std::uint64_t global) { return std::clamp(global, base, base + f.size) - base; };
    Segment s{i, local(lo), local(hi)};
    if (f.compression != Compression::none) {
      // Frame index range of the frames whose first byte lies in [lo, hi).
      const auto starts_begin = f.frame_offsets.begin(), starts_end = f.frame_offsets.end() - 1;
      s.begin = std::lower_bound(starts_begin, starts_end, s.begin) - starts_begin;
      s.end = std::lower_bound(starts_begin, starts_end, s.end) - starts_begin;
    }
    if (s.begin < s.end) segments.push_back(s);
    base += f.size;
  }
  return segments;
}

std::uint64_t segment_bytes(const InputFile& file, const Segment& segment) {
  if (file.stream) return 0;
  if (file.compression != Compression::none) return file.frame_offsets[segment.end] - file.frame_offsets[segment.begin];
  return segment.end - segment.begin;
}

}  // namespace tdcone::io
