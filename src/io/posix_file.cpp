#include "posix_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tdcone/error.hpp"

namespace tdcone::io {

PosixFile::PosixFile(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw IoError(cat("cannot open ", path, ": ", std::strerror(errno)));
}

PosixFile::~PosixFile() { ::close(fd_); }

std::size_t PosixFile::read_at(void* dst, std::size_t size, std::uint64_t offset) const {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, static_cast<char*>(dst) + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(cat("cannot read ", path_, ": ", std::strerror(errno)));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

void PosixFile::advise_sequential() const { ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL); }

}  // namespace tdcone::io
