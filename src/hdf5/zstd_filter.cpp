// The zstd filter itself. This file calls no HDF5 function (only its types
// and constants), so the plugin library built from it needs only libzstd and
// loads into any HDF5 1.10+ (h5dump, h5py) without dragging in our MPI build.
// Registration with the in-process library lives in zstd_register.cpp.
#include "tdcone/hdf5/zstd_filter.hpp"

#include <zstd.h>
#include <zstd_errors.h>

#include <cstdlib>
#include <cstring>

namespace tdcone::hdf5 {
namespace {

constexpr int kDefaultLevel = 3;

// HDF5 frees and reallocates filter buffers with the C allocator (H5MM_xfree
// is free() in release builds); we use malloc/free so the plugin does not
// link the HDF5 library for H5allocate_memory.
std::size_t compress(unsigned level_value, bool has_level, std::size_t nbytes, std::size_t* buf_size, void** buf) {
  int level = has_level ? static_cast<int>(level_value) : kDefaultLevel;
  if (level > ZSTD_maxCLevel()) level = ZSTD_maxCLevel();
  const std::size_t bound = ZSTD_compressBound(nbytes);
  void* out = std::malloc(bound);
  if (out == nullptr) return 0;
  // One frame with the content size in its header (ZSTD_compress records it).
  const std::size_t written = ZSTD_compress(out, bound, *buf, nbytes, level);
  if (ZSTD_isError(written)) {
    std::free(out);
    return 0;
  }
  std::free(*buf);
  *buf = out;
  *buf_size = bound;
  return written;
}

// For frames without a recorded content size (other writers): stream into a
// growing buffer.
std::size_t decompress_streaming(std::size_t nbytes, std::size_t* buf_size, void** buf) {
  ZSTD_DStream* stream = ZSTD_createDStream();
  if (stream == nullptr) return 0;
  std::size_t capacity = nbytes * 4 + ZSTD_DStreamOutSize();
  auto* out = static_cast<char*>(std::malloc(capacity));
  ZSTD_inBuffer in{*buf, nbytes, 0};
  std::size_t produced = 0;
  bool ok = out != nullptr && !ZSTD_isError(ZSTD_initDStream(stream));
  while (ok) {
    if (produced == capacity) {
      capacity *= 2;
      auto* grown = static_cast<char*>(std::realloc(out, capacity));
      if (grown == nullptr) {
        ok = false;
        break;
      }
      out = grown;
    }
    ZSTD_outBuffer dst{out + produced, capacity - produced, 0};
    const std::size_t hint = ZSTD_decompressStream(stream, &dst, &in);
    produced += dst.pos;
    if (ZSTD_isError(hint))
      ok = false;
    else if (in.pos == in.size && dst.pos < dst.size) {  // all input consumed, output flushed
      ok = hint == 0;                                    // else the last frame is truncated
      break;
    }
  }
  ZSTD_freeDStream(stream);
  if (!ok) {
    std::free(out);
    return 0;
  }
  std::free(*buf);
  *buf = out;
  *buf_size = capacity;
  return produced;
}

std::size_t decompress(std::size_t nbytes, std::size_t* buf_size, void** buf) {
  const unsigned long long size = ZSTD_getFrameContentSize(*buf, nbytes);
  if (size == ZSTD_CONTENTSIZE_ERROR) return 0;
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) return decompress_streaming(nbytes, buf_size, buf);
  void* out = std::malloc(size > 0 ? size : 1);
  if (out == nullptr) return 0;
  const std::size_t got = ZSTD_decompress(out, size, *buf, nbytes);
  if (ZSTD_isError(got) || got != size) {
    std::free(out);
    // e.g. several frames in one chunk: the first frame's size is not enough.
    return ZSTD_isError(got) && ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall
               ? decompress_streaming(nbytes, buf_size, buf)
               : 0;
  }
  std::free(*buf);
  *buf = out;
  *buf_size = size;
  return size;
}

// H5Z_func_t: returns the number of valid bytes in *buf, or 0 on failure.
std::size_t zstd_filter(unsigned flags, std::size_t cd_nelmts, const unsigned cd_values[], std::size_t nbytes,
                        std::size_t* buf_size, void** buf) {
  if (flags & H5Z_FLAG_REVERSE) return decompress(nbytes, buf_size, buf);
  return compress(cd_nelmts > 0 ? cd_values[0] : 0, cd_nelmts > 0, nbytes, buf_size, buf);
}

const H5Z_class2_t kZstdClass = {
    H5Z_CLASS_T_VERS,  // version of this struct
    kZstdFilterId,     // 32015, registered with The HDF Group
    1,                 // encoder present
    1,                 // decoder present
    "zstd",            // name shown by h5dump
    nullptr,           // can_apply
    nullptr,           // set_local
    zstd_filter,
};

}  // namespace

const H5Z_class2_t* zstd_filter_class() { return &kZstdClass; }

}  // namespace tdcone::hdf5
