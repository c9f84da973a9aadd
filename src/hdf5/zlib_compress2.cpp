// zlib's compress2(), defined by this program with ISA-L's igzip and
// libdeflate. HDF5's deflate filter (shuffle + deflate level 1, our default
// compression) compresses each chunk with one compress2() call, and the
// program's definition takes the place of zlib's for every library of the
// process (ELF symbol interposition): the same zlib stream format, which any
// zlib inflates, so files record the same filter and read back the same; only
// the compressed bytes differ. HDF5 does not let a program register its own
// class for a predefined filter ("unable to modify predefined filters"),
// hence this way.
//
// Level 1 is igzip's level 2: on the pair columns 2.5 times as fast as
// libdeflate's level 1 (itself twice zlib's), for 4-5 % more bytes (ten
// times as fast on the columns of ids and lengths, which compress 25-300
// times). That compression held most of the time of a write. Other levels,
// and a chunk that igzip cannot fit in the room given, go to libdeflate at
// the level asked.
#include <dlfcn.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "tdcone/hdf5/zlib_compress2.hpp"

namespace {

// A compressor is large to set up: one is kept per thread, for the last level
// asked, with room for what it writes.
struct Compressor {
  int level = -1;
  libdeflate_compressor* state = nullptr;
  std::vector<unsigned char> room;
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
thread_local Compressor compressor;

constexpr int kIgzipLevel = 2;  // for zlib's level 1
thread_local std::vector<std::uint8_t> igzip_room;  // igzip's working memory at that level

// A zlib stream of source by igzip in dest's room; false when it does not fit.
bool igzip_compress(Bytef* dest, uLongf* destLen, const Bytef* source, uLong sourceLen) {
  constexpr uLong kMost = std::numeric_limits<std::uint32_t>::max();  // igzip counts in 32 bits
  if (sourceLen > kMost) return false;
  if (igzip_room.empty()) igzip_room.resize(ISAL_DEF_LVL2_DEFAULT);
  isal_zstream stream;
  isal_deflate_stateless_init(&stream);
  stream.next_in = const_cast<Bytef*>(source);  // igzip only reads it
  stream.avail_in = static_cast<std::uint32_t>(sourceLen);
  stream.next_out = dest;
  stream.avail_out = static_cast<std::uint32_t>(std::min(*destLen, kMost));
  stream.level = kIgzipLevel;
  stream.level_buf = igzip_room.data();
  stream.level_buf_size = static_cast<std::uint32_t>(igzip_room.size());
  stream.gzip_flag = IGZIP_ZLIB;
  stream.end_of_stream = 1;
  stream.flush = NO_FLUSH;
  if (isal_deflate_stateless(&stream) != COMP_OK) return false;
  *destLen = stream.total_out;
  return true;
}

}  // namespace

// zlib's contract: a zlib stream of source in dest; *destLen is the room on
// entry and the stream's size on return; Z_BUF_ERROR when it does not fit.
// HDF5 offers zlib's compressBound() as the room. igzip falls back to stored
// blocks within it; libdeflate's own bound is
// larger for small inputs, and below it libdeflate may give up on a stream
// that would fit (a small chunk of random bits): then it writes in a room of
// ours and the stream is copied.
extern "C" int compress2(Bytef* dest, uLongf* destLen, const Bytef* source, uLong sourceLen, int level) {
  if (level == Z_DEFAULT_COMPRESSION) level = 6;
  if (level < 0 || level > 9) return Z_STREAM_ERROR;
  if (level == 1 && igzip_compress(dest, destLen, source, sourceLen)) return Z_OK;
  libdeflate_compressor* state = compressor.at(level);
  if (state == nullptr) return Z_MEM_ERROR;
  const std::size_t bound = libdeflate_zlib_compress_bound(state, sourceLen);
  if (*destLen >= bound) {
    const std::size_t written = libdeflate_zlib_compress(state, source, sourceLen, dest, *destLen);
    if (written == 0) return Z_BUF_ERROR;
    *destLen = written;
    return Z_OK;
  }
  std::vector<unsigned char>& room = compressor.room;
  room.resize(std::max(room.size(), bound));
  const std::size_t written = libdeflate_zlib_compress(state, source, sourceLen, room.data(), room.size());
  if (written == 0 || written > *destLen) return Z_BUF_ERROR;
  std::memcpy(dest, room.data(), written);
  *destLen = written;
  return Z_OK;
}

namespace tdcone::hdf5 {

bool compress2_is_ours() {
  return ::dlsym(RTLD_DEFAULT, "compress2") == reinterpret_cast<void*>(&::compress2);
}

}  // namespace tdcone::hdf5
