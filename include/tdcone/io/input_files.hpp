#pragma once
// Resolving --input patterns and splitting them into per-rank shares.
#include <cstdint>
#include <string>
#include <vector>

namespace tdcone::io {

enum class Compression { none, zstd, gzip, xz, bzip2 };

/// "plain", "zstd", "gzip", "xz" or "bzip2" (for messages: "corrupt gzip data").
const char* compression_name(Compression compression);

struct InputFile {
  std::string path;
  std::uint64_t size = 0;  // bytes on disk (0 for a stream: its length is known once it is read)
  Compression compression = Compression::none;  // detected from the magic bytes
  // zstd: byte offset of every frame, followed by `size` (so frame i is
  // [frame_offsets[i], frame_offsets[i+1])). Skippable frames are not listed.
  // gzip, xz, bzip2: {0, size}. Their streams cannot be cut without
  // decompressing all that comes before, so the whole file is one "frame",
  // read by one rank (like a single-frame zstd file).
  std::vector<std::uint64_t> frame_offsets;
  // Not a regular file (pipe, FIFO, /dev/stdin) or one whose size reads as 0
  // (procfs): read front to back by one rank, which detects its compression.
  bool stream = false;
  // Which file this is, to tell whether other processes see the same one:
  // device and inode, and the last modification (ns since the epoch).
  std::uint64_t device = 0, inode = 0;
  std::int64_t mtime_ns = 0;
};

/// The paths a path or glob names (a glob's matches sorted by byte order);
/// "-" names standard input, /dev/stdin (read by rank 0, as every stream).
/// Throws UsageError for a missing path or a glob matching nothing.
std::vector<std::string> expand_pattern(const std::string& pattern);

/// Expands paths and globs ("-": /dev/stdin) in the order given (matches of one glob sorted by
/// name), detects compression from the first bytes (zstd, gzip, xz, bzip2;
/// anything else is plain text) and, for zstd, scans frame boundaries without
/// decompressing; streams are not opened. Throws UsageError for a pattern
/// matching nothing, a directory or a missing/unreadable file (message names it).
std::vector<InputFile> resolve_inputs(const std::vector<std::string>& patterns);

/// The files `patterns` name as resolve_inputs would, each only looked up
/// (path, size, stream, identity): not opened, so compression and frames are
/// unknown. Throws the same UsageErrors as resolve_inputs.
std::vector<InputFile> stat_inputs(const std::vector<std::string>& patterns);

/// What makes `seen` (a file as one process sees it) another file than
/// `reference` (the same entry as the reference process sees it), or "" when
/// it is the same file, or the same file grown since (a longer size and a
/// later modification: reading `reference.size` bytes of it reads what the
/// reference saw). On the same host the same file has the same device and
/// inode. On other hosts a shared file system keeps the inode (the device
/// number is the host's own), and a copy staged to node-local disk keeps the
/// size and modification time (`cp -p`, `sbcast -p`).
std::string how_files_differ(const InputFile& seen, const InputFile& reference, bool same_host);

/// What makes `now` (the file at `recorded.path` as it is now, looked up as
/// stat_inputs does) another file than `recorded` (as the job recorded it at
/// its start), or "" when it is the same file, or the same file grown since
/// (appended to: the job read the recorded prefix). `same_host`: `recorded`
/// was looked up on this host (else the device number is not compared, as in
/// how_files_differ). A stream is not compared.
std::string how_file_changed(const InputFile& now, const InputFile& recorded, bool same_host);

/// Throws IoError naming the file unless the file at `recorded.path` is still
/// the one recorded (how_file_changed): checked after reading it, so that a
/// file cut, replaced or rewritten while it was read stops the job instead of
/// giving a result of fewer or other lines than recorded.
void check_unchanged(const InputFile& recorded, bool same_host);

/// The message of a file found changed while it was read, `how` saying how:
/// "PATH changed while the job read it: HOW. ..." (an IoError's).
std::string changed_while_read(const std::string& path, const std::string& how);

/// "" for a regular file (or a missing one); else what `path` is, for
/// messages: "a FIFO (named pipe)", "a pipe", "a terminal or device", "a
/// socket", "a directory". Only looked up (stat), never opened: opening a
/// FIFO blocks until someone writes to it.
std::string not_a_regular_file(const std::string& path);

/// A contiguous piece of one input file: bytes [begin, end) of a plain file,
/// frames [begin, end) of a zstd file, or [0, 1) for all of a gzip, xz or
/// bzip2 file or of a stream. A
/// segment owns every line whose first byte lies inside it.
struct Segment {
  std::size_t file = 0;  // index into the resolved file list
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

/// The segments of `rank` out of `n_ranks`: the concatenated on-disk bytes of
/// all files are cut into n_ranks equal ranges; plain files are cut at any
/// byte, zstd files at frame starts (a frame goes to the rank whose range
/// holds its first byte, so a single-frame file goes to one rank), gzip, xz
/// and bzip2 files not at all (the rank whose range holds the first byte reads
/// all of it). Streams go
/// to rank 0, and with them every byte before the last stream. Segments of
/// rank r precede those of rank r+1 in (file, offset) order, so the lines of
/// a rank are one contiguous run of the global line order.
/// Deterministic: every rank computes the same cut.
std::vector<Segment> plan_share(const std::vector<InputFile>& files, int rank, int n_ranks);

/// On-disk bytes of a segment, for progress (0 for a stream: size unknown).
std::uint64_t segment_bytes(const InputFile& file, const Segment& segment);

}  // namespace tdcone::io
