#pragma once
// A read-only file descriptor that reads at explicit offsets (pread), shared
// by the frame scanner and the line reader, or front to back (a stream).
// Errors name the file.
#include <cstddef>
#include <cstdint>
#include <string>

#include <sys/types.h>

namespace tdcone::io {

/// What a file of this mode is, for a message: "a directory", "a pipe or FIFO".
std::string file_kind(mode_t mode);

class PosixFile {
 public:
  explicit PosixFile(const std::string& path);  // throws IoError
  ~PosixFile();
  PosixFile(const PosixFile&) = delete;
  PosixFile& operator=(const PosixFile&) = delete;

  /// Reads up to `size` bytes at `offset`; fewer only at end of file.
  std::size_t read_at(void* dst, std::size_t size, std::uint64_t offset) const;
  /// Reads up to `size` bytes at the current position; fewer only at the end.
  std::size_t read(void* dst, std::size_t size);

  /// Hints the kernel that the file will be read front to back (more read-ahead).
  void advise_sequential() const;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace tdcone::io
