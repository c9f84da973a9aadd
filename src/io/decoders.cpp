#include "decoders.hpp"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

#include "tdcone/core/error.hpp"
#include "zstd_format.hpp"

namespace tdcone::io {

Compression detect_compression(const unsigned char* b, std::size_t size) {
  const auto starts = [&](std::initializer_list<unsigned char> magic, std::size_t at = 0) {
    return size >= at + magic.size() && std::equal(magic.begin(), magic.end(), b + at);
  };
  if (size >= 4 && is_zstd_magic(little_endian(b, 4))) return Compression::zstd;
  if (starts({0x1F, 0x8B, 0x08})) return Compression::gzip;
  if (starts({0xFD, '7', 'z', 'X', 'Z', 0x00})) return Compression::xz;
  if (starts({'B', 'Z', 'h'}) && size >= 4 && b[3] >= '1' && b[3] <= '9' &&
      (starts({0x31, 0x41, 0x59, 0x26, 0x53, 0x59}, 4) || starts({0x17, 0x72, 0x45, 0x38, 0x50, 0x90}, 4)))
    return Compression::bzip2;
  return Compression::none;
}

namespace {

// zlib and bzip2 count in (32-bit) unsigned ints: hand them at most this much a call.
constexpr std::size_t kMaxStep = std::size_t{1} << 30;

std::size_t step(std::size_t available) { return std::min(available, kMaxStep); }

[[noreturn]] void throw_corrupt(const std::string& path, const char* format, const std::string& why) {
  throw IoError(cat(path, ": corrupt ", format, " data: ", why));
}

class ZstdDecoder final : public Decoder {
 public:
  explicit ZstdDecoder(std::string path) : path_(std::move(path)), dctx_(ZSTD_createDCtx()) {
    if (!dctx_) throw std::bad_alloc();
  }
  ~ZstdDecoder() override { ZSTD_freeDCtx(dctx_); }

  void decode(InputBuffer& in, OutputBuffer& out, bool) override {
    ZSTD_inBuffer zin{in.data, in.size, in.pos};
    ZSTD_outBuffer zout{out.data, out.size, out.pos};
    for (;;) {
      const std::size_t in_before = zin.pos, out_before = zout.pos;
      const std::size_t ret = ZSTD_decompressStream(dctx_, &zout, &zin);
      if (ZSTD_isError(ret)) throw_corrupt(path_, "zstd", ZSTD_getErrorName(ret));
      if (zin.pos == in_before && zout.pos == out_before) break;  // (then ret hints at a next frame: not kept)
      hint_ = ret;
      if (zout.pos == zout.size) break;
    }
    in.pos = zin.pos;
    out.pos = zout.pos;
  }
  // 0: a frame is done and flushed (ZSTD_decompressStream's hint); before any input, nothing was read.
  bool complete() const override { return hint_ == 0; }

 private:
  std::string path_;
  ZSTD_DCtx* dctx_;
  std::size_t hint_ = 1;
};

// gzip members one after the other (`cat a.gz b.gz`): after the end of one,
// the next bytes must start another (zlib checks its header).
class GzipDecoder final : public Decoder {
 public:
  explicit GzipDecoder(std::string path) : path_(std::move(path)) {
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();  // 16: gzip wrapper only
  }
  ~GzipDecoder() override { inflateEnd(&zs_); }

  void decode(InputBuffer& in, OutputBuffer& out, bool) override {
    while (out.pos < out.size) {
      if (!in_member_) {
        if (in.pos == in.size) return;
        inflateReset(&zs_);
        in_member_ = true;
      }
      const std::size_t in_step = step(in.size - in.pos), out_step = step(out.size - out.pos);
      zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data + in.pos));
      zs_.avail_in = static_cast<uInt>(in_step);
      zs_.next_out = reinterpret_cast<Bytef*>(out.data + out.pos);
      zs_.avail_out = static_cast<uInt>(out_step);
      const int ret = inflate(&zs_, Z_NO_FLUSH);
      const std::size_t used = in_step - zs_.avail_in, produced = out_step - zs_.avail_out;
      in.pos += used;
      out.pos += produced;
      if (ret == Z_STREAM_END) {
        in_member_ = false;
        ++members_;
      } else if (ret == Z_BUF_ERROR || (ret == Z_OK && used == 0 && produced == 0)) {
        return;  // needs more input
      } else if (ret == Z_MEM_ERROR) {
        throw std::bad_alloc();
      } else if (ret != Z_OK) {
        throw_corrupt(path_, "gzip", cat(zs_.msg ? zs_.msg : "inflate error", " (member ", members_ + 1, ")"));
      }
    }
  }
  bool complete() const override { return !in_member_ && members_ > 0; }

 private:
  std::string path_;
  z_stream zs_{};
  bool in_member_ = false;
  std::uint64_t members_ = 0;
};

// xz streams, concatenated and with stream padding: liblzma's
// LZMA_CONCATENATED mode, which ends only with LZMA_FINISH at the input's end.
class XzDecoder final : public Decoder {
 public:
  explicit XzDecoder(std::string path) : path_(std::move(path)) {
    const lzma_ret ret = lzma_stream_decoder(&stream_, UINT64_MAX, LZMA_CONCATENATED);
    if (ret != LZMA_OK) throw std::bad_alloc();
  }
  ~XzDecoder() override { lzma_end(&stream_); }

  void decode(InputBuffer& in, OutputBuffer& out, bool last) override {
    while (!done_ && out.pos < out.size) {
      stream_.next_in = reinterpret_cast<const std::uint8_t*>(in.data + in.pos);
      stream_.avail_in = in.size - in.pos;
      stream_.next_out = reinterpret_cast<std::uint8_t*>(out.data + out.pos);
      stream_.avail_out = out.size - out.pos;
      const lzma_ret ret = lzma_code(&stream_, last ? LZMA_FINISH : LZMA_RUN);
      const std::size_t used = in.size - in.pos - stream_.avail_in, produced = out.size - out.pos - stream_.avail_out;
      in.pos += used;
      out.pos += produced;
      switch (ret) {
        case LZMA_STREAM_END: done_ = true; return;
        case LZMA_OK:
          if (used == 0 && produced == 0) return;
          break;
        case LZMA_BUF_ERROR: return;  // no progress possible: more input needed (or, after the last, truncated)
        case LZMA_MEM_ERROR: throw std::bad_alloc();
        case LZMA_FORMAT_ERROR: throw_corrupt(path_, "xz", "not in the xz format (bytes after the last stream?)");
        case LZMA_OPTIONS_ERROR: throw_corrupt(path_, "xz", "unsupported options in a stream header");
        case LZMA_DATA_ERROR: throw_corrupt(path_, "xz", "compressed data is corrupt");
        default: throw_corrupt(path_, "xz", cat("liblzma error ", int(ret)));
      }
    }
  }
  bool complete() const override { return done_; }

 private:
  std::string path_;
  lzma_stream stream_ = LZMA_STREAM_INIT;
  bool done_ = false;
};

// bzip2 streams one after the other (`cat a.bz2 b.bz2`, pbzip2's output).
class Bzip2Decoder final : public Decoder {
 public:
  explicit Bzip2Decoder(std::string path) : path_(std::move(path)) {}
  ~Bzip2Decoder() override { end(); }

  void decode(InputBuffer& in, OutputBuffer& out, bool) override {
    while (out.pos < out.size) {
      if (!in_stream_) {
        if (in.pos == in.size) return;
        end();
        stream_ = bz_stream{};
        if (BZ2_bzDecompressInit(&stream_, 0, 0) != BZ_OK) throw std::bad_alloc();
        initialized_ = in_stream_ = true;
      }
      const std::size_t in_step = step(in.size - in.pos), out_step = step(out.size - out.pos);
      stream_.next_in = const_cast<char*>(in.data + in.pos);
      stream_.avail_in = static_cast<unsigned>(in_step);
      stream_.next_out = out.data + out.pos;
      stream_.avail_out = static_cast<unsigned>(out_step);
      const int ret = BZ2_bzDecompress(&stream_);
      const std::size_t used = in_step - stream_.avail_in, produced = out_step - stream_.avail_out;
      in.pos += used;
      out.pos += produced;
      switch (ret) {
        case BZ_STREAM_END:
          in_stream_ = false;
          ++streams_;
          break;
        case BZ_OK:
          if (used == 0 && produced == 0) return;
          break;
        case BZ_MEM_ERROR: throw std::bad_alloc();
        case BZ_DATA_ERROR_MAGIC:
          throw_corrupt(path_, "bzip2", cat("no bzip2 stream header (stream ", streams_ + 1, "; bytes after the last stream?)"));
        case BZ_DATA_ERROR: throw_corrupt(path_, "bzip2", cat("data integrity error (stream ", streams_ + 1, ")"));
        default: throw_corrupt(path_, "bzip2", cat("libbz2 error ", ret, " (stream ", streams_ + 1, ")"));
      }
    }
  }
  bool complete() const override { return !in_stream_ && streams_ > 0; }

 private:
  void end() {
    if (initialized_) BZ2_bzDecompressEnd(&stream_);
    initialized_ = false;
  }

  std::string path_;
  bz_stream stream_{};
  bool initialized_ = false, in_stream_ = false;
  std::uint64_t streams_ = 0;
};

}  // namespace

std::unique_ptr<Decoder> make_decoder(Compression compression, const std::string& path) {
  switch (compression) {
    case Compression::zstd: return std::make_unique<ZstdDecoder>(path);
    case Compression::gzip: return std::make_unique<GzipDecoder>(path);
    case Compression::xz: return std::make_unique<XzDecoder>(path);
    case Compression::bzip2: return std::make_unique<Bzip2Decoder>(path);
    case Compression::none: break;
  }
  return nullptr;
}

}  // namespace tdcone::io
