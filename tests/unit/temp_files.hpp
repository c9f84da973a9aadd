#pragma once
// Scratch files for the io tests: a directory removed at the end of the test,
// and zstd frames built by hand.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

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

}  // namespace tdcone::test_support
