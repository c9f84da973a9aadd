// zlib's compress2(), defined by this program with libdeflate. HDF5's deflate
// filter (shuffle + deflate level 1, our default compression) compresses each
// chunk with one compress2() call, and the program's definition takes the
// place of zlib's for every library of the process (ELF symbol interposition):
// the same zlib stream format at the same level, which any zlib inflates, so
// files record the same filter and read back the same; only the compressed
// bytes differ (about 1 % fewer). libdeflate does it in about half the time,
// and that compression held most of the time of a write. HDF5 does not let a
// program register its own class for a predefined filter ("unable to modify
// predefined filters"), hence this way.
#include <dlfcn.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "tdcone/hdf5/deflate_by_libdeflate.hpp"

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

}  // namespace

// zlib's contract: a zlib stream of source in dest; *destLen is the room on
// entry and the stream's size on return; Z_BUF_ERROR when it does not fit.
// HDF5 offers zlib's compressBound() as the room. libdeflate's own bound is
// larger for small inputs, and below it libdeflate may give up on a stream
// that would fit (a small chunk of random bits): then it writes in a room of
// ours and the stream is copied.
extern "C" int compress2(Bytef* dest, uLongf* destLen, const Bytef* source, uLong sourceLen, int level) {
  if (level == Z_DEFAULT_COMPRESSION) level = 6;
  if (level < 0 || level > 9) return Z_STREAM_ERROR;
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

namespace tdcone::h5 {

bool compress2_is_libdeflate() {
  return ::dlsym(RTLD_DEFAULT, "compress2") == reinterpret_cast<void*>(&::compress2);
}

}  // namespace tdcone::h5
