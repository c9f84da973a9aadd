#pragma once
// Scratch files for the io tests: a directory removed at the end of the test,
// zstd frames and gzip members built by hand, and a FIFO fed by a thread.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <atomic>
#include <csignal>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>

namespace tdcone::test_support {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "tdcone_test") {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }

 private:
  std::filesystem::path path_;
};

/// One zstd frame holding `chunk` (content size recorded), optionally with a checksum.
/// One gzip member holding `text` (level 6).
inline std::string gzip_member(std::string_view text) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, text.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

inline std::string zstd_frame(std::string_view chunk, bool checksum = false) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, checksum ? 1 : 0);
  std::string out(ZSTD_compressBound(chunk.size()), '\0');
  const std::size_t n = ZSTD_compress2(cctx, out.data(), out.size(), chunk.data(), chunk.size());
  ZSTD_freeCCtx(cctx);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

/// Writes `bytes` into the FIFO at `path` from a thread, once a reader has
/// opened it (within 10 s; a reader that never comes fails the test instead
/// of hanging it). Each FifoFeeder serves one reading of the FIFO.
class FifoFeeder {
 public:
  FifoFeeder(const std::string& path, std::string bytes)
      : writer_([this, path, bytes = std::move(bytes)] {
          int fd = -1;  // a non-blocking open for writing fails until a reader has the FIFO open
          for (int tries = 0; fd < 0 && tries < 10000; ++tries) {
            fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
          if (fd < 0) return;
          ::fcntl(fd, F_SETFL, 0);
          sigset_t pipe_signal;  // a reader that stops early makes write fail, not kill the tests
          sigemptyset(&pipe_signal);
          sigaddset(&pipe_signal, SIGPIPE);
          ::pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
          std::size_t done = 0;
          while (done < bytes.size()) {
            const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
            if (n <= 0) break;
            done += n;
          }
          ::close(fd);
          delivered_ = done >= bytes.size();
        }) {}
  ~FifoFeeder() { EXPECT_TRUE(delivered()) << "nobody read the FIFO"; }
  FifoFeeder(const FifoFeeder&) = delete;
  FifoFeeder& operator=(const FifoFeeder&) = delete;

  bool delivered() {
    if (writer_.joinable()) writer_.join();
    return delivered_;
  }

 private:
  bool delivered_ = false;
  std::thread writer_;
};

}  // namespace tdcone::test_support
