// The deflate filter (deflate_filter.hpp). Compressing the output's chunks
// took most of the time of a write with zlib, and the read-back check of
// every file inflates them all again; igzip and libdeflate do both several
// times faster than zlib, with the same stream format.
//
// Level 1, our default, is igzip's level 2; a chunk that igzip cannot fit
// in zlib's compressBound(), and every other level, go to libdeflate at the
// level asked. Inflating is libdeflate's, which wants to know the inflated
// size: the largest this thread has seen, grown until the chunk fits.
#include "tdcone/hdf5/deflate_filter.hpp"

#include <dlfcn.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace tdcone::hdf5 {
namespace {

std::atomic<std::uint64_t> compressed_chunks{0}, inflated_chunks{0};

// A libdeflate compressor is large to set up: one is kept per thread, for
// the last level asked.
struct Compressor {
  int level = -1;
  libdeflate_compressor* state = nullptr;
  Compressor() = default;
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;
  ~Compressor() {
    if (state) libdeflate_free_compressor(state);
  }
  libdeflate_compressor* at(int wanted) {
    if (level != wanted) {
      if (state) libdeflate_free_compressor(state);
      state = libdeflate_alloc_compressor(wanted);
      level = state ? wanted : -1;
    }
    return state;
  }
};

struct Decompressor {
  libdeflate_decompressor* state = libdeflate_alloc_decompressor();
  std::size_t largest = 0;  // the largest chunk inflated so far
  Decompressor() = default;
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;
  ~Decompressor() {
    if (state) libdeflate_free_decompressor(state);
  }
};

thread_local Compressor compressor;
thread_local Decompressor decompressor;
constexpr int kIgzipLevel = 2;                      // for deflate's level 1
thread_local std::vector<std::uint8_t> igzip_room;  // igzip's working memory at that level

// A zlib stream of `in` by igzip into `out`; its size, or 0 when it does not fit.
std::size_t igzip_compress(const void* in, std::size_t in_bytes, void* out, std::size_t room) {
  constexpr std::size_t kMost = std::numeric_limits<std::uint32_t>::max();  // igzip counts in 32 bits
  if (in_bytes > kMost) return 0;
  if (igzip_room.empty()) igzip_room.resize(ISAL_DEF_LVL2_DEFAULT);
  isal_zstream stream;
  isal_deflate_stateless_init(&stream);
  stream.next_in = static_cast<std::uint8_t*>(const_cast<void*>(in));  // igzip only reads it
  stream.avail_in = static_cast<std::uint32_t>(in_bytes);
  stream.next_out = static_cast<std::uint8_t*>(out);
  stream.avail_out = static_cast<std::uint32_t>(std::min(room, kMost));
  stream.level = kIgzipLevel;
  stream.level_buf = igzip_room.data();
  stream.level_buf_size = static_cast<std::uint32_t>(igzip_room.size());
  stream.gzip_flag = IGZIP_ZLIB;
  stream.end_of_stream = 1;
  stream.flush = NO_FLUSH;
  return isal_deflate_stateless(&stream) == COMP_OK ? stream.total_out : 0;
}

// The filter's contract (H5Z_func_t): the chunk is `nbytes` at *buf; on
// success *buf is a buffer of *buf_size bytes from H5allocate_memory holding
// the result, and the result's size is returned; 0 is a failure.
std::size_t compress(int level, std::size_t nbytes, std::size_t* buf_size, void** buf) {
  std::size_t room = compressBound(nbytes);
  void* out = H5allocate_memory(room, false);
  if (out == nullptr) return 0;
  std::size_t written = level == 1 ? igzip_compress(*buf, nbytes, out, room) : 0;
  if (written == 0) {
    libdeflate_compressor* state = compressor.at(level);
    // libdeflate's bound is larger than zlib's for small chunks; below it
    // libdeflate may give up on a chunk that would fit.
    const std::size_t bound = state ? libdeflate_zlib_compress_bound(state, nbytes) : 0;
    if (bound > room) {
      H5free_memory(out);
      room = bound;
      out = H5allocate_memory(room, false);
    }
    if (state != nullptr && out != nullptr) written = libdeflate_zlib_compress(state, *buf, nbytes, out, room);
  }
  if (written == 0) {
    H5free_memory(out);
    return 0;
  }
  H5free_memory(*buf);
  *buf = out;
  *buf_size = room;
  compressed_chunks.fetch_add(1, std::memory_order_relaxed);
  return written;
}

std::size_t inflate(std::size_t nbytes, std::size_t* buf_size, void** buf) {
  if (decompressor.state == nullptr) return 0;
  // Deflate packs at most 1032 bytes into one: past that the stream is bad.
  const std::size_t most = nbytes * 1032 + 1024;
  for (std::size_t room = std::max({decompressor.largest, 4 * nbytes, std::size_t{1} << 16});;) {
    room = std::min(room, most);
    void* out = H5allocate_memory(room, false);
    if (out == nullptr) return 0;
    std::size_t inflated = 0;
    const libdeflate_result result = libdeflate_zlib_decompress(decompressor.state, *buf, nbytes, out, room, &inflated);
    if (result == LIBDEFLATE_SUCCESS) {
      H5free_memory(*buf);
      *buf = out;
      *buf_size = room;
      decompressor.largest = std::max(decompressor.largest, inflated);
      inflated_chunks.fetch_add(1, std::memory_order_relaxed);
      return inflated;
    }
    H5free_memory(out);
    if (result != LIBDEFLATE_INSUFFICIENT_SPACE || room == most) return 0;
    room *= 2;
  }
}

std::size_t deflate_filter(unsigned flags, std::size_t cd_nelmts, const unsigned cd_values[], std::size_t nbytes,
                           std::size_t* buf_size, void** buf) {
  if (flags & H5Z_FLAG_REVERSE) return inflate(nbytes, buf_size, buf);
  if (cd_nelmts != 1 || cd_values[0] > 9) return 0;  // as HDF5's own: one value, the level
  return compress(static_cast<int>(cd_values[0]), nbytes, buf_size, buf);
}

const H5Z_class2_t kDeflateClass = {
    H5Z_CLASS_T_VERS,
    H5Z_FILTER_DEFLATE,
    1,  // encoder present
    1,  // decoder present
    "deflate",
    nullptr,  // can_apply
    nullptr,  // set_local
    deflate_filter,
};

}  // namespace

const H5Z_class2_t* deflate_filter_class() { return &kDeflateClass; }

DeflateCounts deflate_filter_counts() {
  return {compressed_chunks.load(std::memory_order_relaxed), inflated_chunks.load(std::memory_order_relaxed)};
}

void register_deflate_filter() {
  // H5Zregister() refuses the ids of HDF5's predefined filters ("unable to
  // modify predefined filters"). H5Z_register() is the function it calls
  // once its arguments pass, the one HDF5 registers its own filters with:
  // it replaces the class of an id already registered. It is the library's
  // own, in no public header, hence looked up by name; a library without it
  // keeps its own deflate.
  using Register = herr_t (*)(const H5Z_class2_t*);
  static const auto internal_register = reinterpret_cast<Register>(::dlsym(RTLD_DEFAULT, "H5Z_register"));
  if (internal_register == nullptr || H5open() < 0) return;
  internal_register(&kDeflateClass);
}

}  // namespace tdcone::hdf5
