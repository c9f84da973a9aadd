#include "tdcone/io/zstd_writer.hpp"

#include <zstd.h>
#include <zstd_errors.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "tdcone/core/error.hpp"

namespace tdcone::io {

namespace {

struct ContextDeleter {
  void operator()(ZSTD_CCtx* context) const { ZSTD_freeCCtx(context); }
};
using Context = std::unique_ptr<ZSTD_CCtx, ContextDeleter>;

// One frame of all of `data` into `out` (room for the bound) with the
// context's parameters: one end directive on a fresh session, so the frame
// records its content size, as a one-shot compression's does. Its size, or
// a zstd error code.
std::size_t whole_frame(ZSTD_CCtx* context, std::vector<char>& out, const char* data, std::size_t size) {
  ZSTD_CCtx_reset(context, ZSTD_reset_session_only);
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  ZSTD_inBuffer input{data, size, 0};
  const std::size_t left = ZSTD_compressStream2(context, &output, &input, ZSTD_e_end);
  if (ZSTD_isError(left)) return left;
  return left == 0 ? output.pos : static_cast<std::size_t>(-ZSTD_error_dstSize_tooSmall);
}

// One frame into `out`; its size. `context` null: ZSTD_compress's frame at
// `level`; else whole_frame's with the context's parameters.
std::size_t compress_into(ZSTD_CCtx* context, std::vector<char>& out, const char* data, std::size_t size, int level,
                          const std::string& what) {
  out.resize(ZSTD_compressBound(size));
  const std::size_t n = context ? whole_frame(context, out, data, size)
                                : ZSTD_compress(out.data(), out.size(), data, size, level);
  if (ZSTD_isError(n)) throw IoError(cat("cannot compress ", what, ": ", ZSTD_getErrorName(n)));
  return n;
}

// `path` opened for writing, or standard output for "-".
std::FILE* open_for_writing(const std::string& path) {
  if (path == "-") return stdout;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw IoError(cat("cannot open ", path, " for writing: ", std::strerror(errno)));
  return file;
}

}  // namespace

struct ZstdWriter::Compressor {
  Context context{ZSTD_createCCtx()};
  std::vector<char> compressed;
};

std::string zstd_frame(std::string_view bytes, int level, const std::string& what) {
  std::vector<char> compressed;
  const std::size_t n = compress_into(nullptr, compressed, bytes.data(), bytes.size(), level, what);
  return std::string(compressed.data(), n);
}

ZstdWriter::ZstdWriter(const std::string& path, ZstdWriterOptions options)
    : ZstdWriter(open_for_writing(path), path, options) {
  owns_file_ = file_ != stdout;
}

ZstdWriter::ZstdWriter(std::FILE* file, std::string name, ZstdWriterOptions options)
    : ZstdWriter(ByteSink(), std::move(name), options) {
  file_ = file;
}

ZstdWriter::ZstdWriter(ByteSink sink, std::string name, ZstdWriterOptions options)
    : name_(std::move(name)), options_(options), sink_(std::move(sink)) {
  if (!options_.compress) return;
  compressor_ = std::make_unique<Compressor>();
  ZSTD_CCtx* context = compressor_->context.get();
  if (!context) throw IoError(cat("cannot start zstd compression for ", name_));
  // Every frame ends with a checksum of its content: a damaged byte is an
  // error when the file is read, never a silently different line.
  const std::size_t level = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, options_.level);
  const std::size_t checksum = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
  if (ZSTD_isError(level) || ZSTD_isError(checksum))
    throw IoError(cat("cannot set up zstd compression for ", name_, ": ",
                      ZSTD_getErrorName(ZSTD_isError(level) ? level : checksum)));
}

ZstdWriter::~ZstdWriter() {
  if (owns_file_ && file_) std::fclose(file_);
}

void ZstdWriter::write(std::string_view bytes) {
  pending_ += bytes;
  if (!compressor_) {
    if (pending_.size() >= kZstdFrameBytes) put(pending_.data(), pending_.size()), pending_.clear();
  } else if (options_.frame_bytes == 0) {
    if (pending_.size() >= kZstdFrameBytes) stream(false);
  } else {
    std::size_t done = 0;
    for (; pending_.size() - done >= options_.frame_bytes; done += options_.frame_bytes)
      compress_frame(pending_.data() + done, options_.frame_bytes);
    pending_.erase(0, done);
  }
}

void ZstdWriter::finish() {
  if (!compressor_) {
    put(pending_.data(), pending_.size());
  } else if (options_.frame_bytes == 0) {
    stream(true);
  } else if (!pending_.empty() || frames_ == 0) {
    compress_frame(pending_.data(), pending_.size());  // a valid file even when empty
  }
  pending_.clear();
  if (!file_) return;
  const bool failed = owns_file_ ? std::fclose(file_) != 0 : std::fflush(file_) != 0 || std::ferror(file_);
  if (owns_file_) file_ = nullptr;
  if (failed) throw IoError(cat("cannot write ", name_, ": ", std::strerror(errno)));
}

void ZstdWriter::compress_frame(const char* data, std::size_t size) {
  auto& out = compressor_->compressed;
  // Sized first: compress_into may reallocate `out`, so out.data() is read after it.
  const std::size_t compressed = compress_into(compressor_->context.get(), out, data, size, options_.level, name_);
  put(out.data(), compressed);
  ++frames_;
}

// Feeds all of pending_ to the streamed frame; `end` closes the frame.
void ZstdWriter::stream(bool end) {
  auto& out = compressor_->compressed;
  out.resize(ZSTD_CStreamOutSize());
  ZSTD_inBuffer in{pending_.data(), pending_.size(), 0};
  const ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
  for (;;) {
    ZSTD_outBuffer chunk{out.data(), out.size(), 0};
    const std::size_t left = ZSTD_compressStream2(compressor_->context.get(), &chunk, &in, mode);
    if (ZSTD_isError(left)) throw IoError(cat("cannot compress ", name_, ": ", ZSTD_getErrorName(left)));
    put(out.data(), chunk.pos);
    if (end ? left == 0 : in.pos == in.size) break;
  }
  pending_.clear();
}

void ZstdWriter::put(const char* data, std::size_t size) {
  if (!file_) return sink_({data, size});
  if (size > 0 && std::fwrite(data, 1, size, file_) != size)
    throw IoError(cat("cannot write ", name_, ": ", std::strerror(errno)));
}

}  // namespace tdcone::io
