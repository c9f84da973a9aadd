#include "posix_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tdcone/core/error.hpp"

namespace tdcone::io {

std::string file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a pipe or FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "a terminal or device";
}

PosixFile::PosixFile(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw IoError(cat("cannot open ", path, ": ", std::strerror(errno)));
}

PosixFile::~PosixFile() { ::close(fd_); }

namespace {

// Calls `read_some(dst, size)` (a read or pread) until `size` bytes or the end.
template <class ReadSome>
std::size_t read_fully(const std::string& path, void* dst, std::size_t size, ReadSome&& read_some) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = read_some(static_cast<char*>(dst) + done, size - done, done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(cat("cannot read ", path, ": ", std::strerror(errno)));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

}  // namespace

std::size_t PosixFile::read_at(void* dst, std::size_t size, std::uint64_t offset) const {
  return read_fully(path_, dst, size, [&](char* to, std::size_t length, std::size_t done) {
    return ::pread(fd_, to, length, static_cast<off_t>(offset + done));
  });
}

std::size_t PosixFile::read(void* dst, std::size_t size) {
  return read_fully(path_, dst, size, [&](char* to, std::size_t length, std::size_t) { return ::read(fd_, to, length); });
}

void PosixFile::advise_sequential() const { ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL); }

}  // namespace tdcone::io
