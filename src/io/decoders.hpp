#pragma once
// Compression formats of input files: detection from the first bytes, and
// streaming decoders for the formats read front to back (zstd from a pipe,
// gzip, xz and bzip2 always). Internal to io.
#include <cstddef>
#include <memory>
#include <string>

#include "tdcone/io/input_files.hpp"

namespace tdcone::io {

/// Bytes a detection needs at most: the longest magic (bzip2's "BZh9" and
/// the 6-byte block or end-of-stream signature after it).
inline constexpr std::size_t kMagicBytes = 10;

/// The format whose magic starts `bytes` (`size` of them, fewer than
/// kMagicBytes only for a shorter file), else Compression::none. gzip: 1F 8B
/// 08 (deflate, the only method gzip writes); xz: FD '7zXZ' 00; bzip2: 'BZh'
/// '1'-'9' and the signature of a first block or of the end of the stream
/// (an empty file), so that no text line starting "BZh5" is taken for it;
/// zstd: a frame or a skippable frame.
Compression detect_compression(const unsigned char* bytes, std::size_t size);

struct InputBuffer {
  const char* data;
  std::size_t size, pos;
};
struct OutputBuffer {
  char* data;
  std::size_t size, pos;
};

/// Decompresses one file front to back. Concatenated streams (gzip members,
/// xz streams with their padding, bzip2 streams, zstd frames) are read one
/// after the other, like the command-line tools do.
class Decoder {
 public:
  virtual ~Decoder() = default;
  /// Decodes input [in.pos, in.size) into out [out.pos, out.size), advancing
  /// both as far as it can. `last`: no input follows in.data. Throws IoError
  /// "PATH: corrupt FORMAT data: WHY" on data that is not valid.
  virtual void decode(InputBuffer& in, OutputBuffer& out, bool last) = 0;
  /// The input so far ends where a stream ends (not inside one, and at least one).
  virtual bool complete() const = 0;
};

/// A decoder for `compression` (not none) of the file `path` (for messages).
std::unique_ptr<Decoder> make_decoder(Compression compression, const std::string& path);

}  // namespace tdcone::io
