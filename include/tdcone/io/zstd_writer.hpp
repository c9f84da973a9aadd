#pragma once
// The one zstd writer (synth corpora, select checkpoints, export): bytes in,
// a file or standard output out, compressed or plain; every write checked, so
// a full disk is an IoError naming the file, never a short file.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace tdcone::io {

/// Uncompressed bytes per zstd frame of a framed file: readers split .zst files at frame boundaries.
inline constexpr std::size_t kZstdFrameBytes = std::size_t{1} << 20;

/// How a ZstdWriter writes.
struct ZstdWriterOptions {
  bool compress = true;  ///< false: the bytes as given (plain text through the same checked writes)
  int level = 3;         ///< zstd compression level
  /// > 0: a frame per `frame_bytes` of input, each with its content size (the
  /// last one shorter; an empty input still gives one empty frame).
  /// 0: one frame, streamed in chunks of kZstdFrameBytes (its size not recorded).
  /// Either way every frame ends with its content checksum, which readers verify.
  std::size_t frame_bytes = kZstdFrameBytes;
};

/// One zstd frame of `bytes` with its content size recorded, as ZSTD_compress
/// writes it at `level`. Throws IoError naming `what` if zstd fails.
std::string zstd_frame(std::string_view bytes, int level, const std::string& what);

/// Where a ZstdWriter given no file puts its output (a stream of the caller's,
/// which checks each write itself).
using ByteSink = std::function<void(std::string_view)>;

/// Writes to a file, standard output or a ByteSink; call finish() to flush and
/// close (the destructor only closes a file it opened, reporting nothing).
class ZstdWriter {
 public:
  /// Creates (or truncates) `path`; "-" is standard output. Throws IoError.
  ZstdWriter(const std::string& path, ZstdWriterOptions options = {});
  /// Writes to an open `file`, named `name` in messages; left open by finish().
  ZstdWriter(std::FILE* file, std::string name, ZstdWriterOptions options = {});
  /// Passes the output to `sink`; finish() writes what is left and flushes nothing.
  ZstdWriter(ByteSink sink, std::string name, ZstdWriterOptions options = {});
  ~ZstdWriter();
  ZstdWriter(const ZstdWriter&) = delete;
  ZstdWriter& operator=(const ZstdWriter&) = delete;

  /// Passes `bytes` on: buffered until a frame (or chunk) is complete.
  void write(std::string_view bytes);
  /// Writes what is left (the last frame), then flushes and closes (or flushes
  /// a file given open). Throws IoError "cannot write NAME: REASON".
  void finish();

 private:
  struct Compressor;

  void compress_frame(const char* data, std::size_t size);
  void stream(bool end);
  void put(const char* data, std::size_t size);

  std::string name_;
  ZstdWriterOptions options_;
  std::FILE* file_ = nullptr;  // or, when null, sink_
  ByteSink sink_;
  bool owns_file_ = false;
  std::unique_ptr<Compressor> compressor_;
  std::string pending_;  // input not yet compressed or written
  std::uint64_t frames_ = 0;
};

}  // namespace tdcone::io
