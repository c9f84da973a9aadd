#include "tdcone/io/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iterator>
#include <thread>

#include "tdcone/core/error.hpp"

namespace tdcone::io {

namespace {

std::string host_name() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

// The partial file for the signal handler, and the file Open MPI's MPI-IO
// (sharedfp lockedfile) creates beside it while opening it, PARTIAL.locktest.RANK:
// plain memory, async-signal-safe.
char signal_partial[4096];
char signal_locktest[4096 + 32];
char signal_lock[4096 + 8];  // the OutputLock this process holds, removed with the partial file
constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
bool handled[std::size(kSignals)];

extern "C" void remove_partial_and_stop(int signal) {
  if (signal_partial[0] != '\0') ::unlink(signal_partial), ::unlink(signal_locktest);
  if (signal_lock[0] != '\0') ::unlink(signal_lock);  // still held: no other job has this file
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

OutputLock::OutputLock(const std::string& path) : lock_path_(path + ".lock") {
  for (;;) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(cat("cannot create the lock file ", lock_path_, ": ", std::strerror(errno)));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error == EWOULDBLOCK) {
        // The holder writes its line just after it takes the lock: give it a moment.
        std::string who;
        for (int attempt = 0; attempt < 50 && who.empty(); ++attempt) {
          if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
          char holder[300] = {};
          const ssize_t got = ::pread(fd, holder, sizeof holder - 1, 0);
          who = got > 0 ? std::string(holder, static_cast<std::size_t>(got)) : "";
          if (!who.empty() && who.back() != '\n') who.clear();  // still being written
        }
        while (!who.empty() && who.back() == '\n') who.pop_back();
        ::close(fd);
        throw IoError(cat("another tdcone job is writing ", path, " (lock ", lock_path_, " held",
                          who.empty() ? "" : " by " + who, "): wait for it or choose another --output"));
      }
      ::close(fd);
      if (error == ENOLCK || error == EOPNOTSUPP || error == EINVAL) return;  // no locks here: go on without
      throw IoError(cat("cannot lock ", lock_path_, ": ", std::strerror(error)));
    }
    // The holder before us may have removed the file between our open and
    // our lock: then the lock is on a file nobody else sees; take it anew.
    struct stat ours, named;
    if (::fstat(fd, &ours) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && ours.st_dev == named.st_dev &&
        ours.st_ino == named.st_ino) {
      fd_ = fd;
      break;
    }
    ::close(fd);
  }
  signal_lock[lock_path_.copy(signal_lock, sizeof signal_lock - 1)] = '\0';
  const std::string holder = cat("pid ", ::getpid(), " on ", host_name(), "\n");
  // Only for the message of a refused job: a failed write is no reason to stop.
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, holder.data(), holder.size(), 0);
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  signal_lock[0] = '\0';
  ::unlink(lock_path_.c_str());  // before the lock goes: no other job holds this file
  ::close(fd_);
}

std::string create_partial(const std::string& path) {
  std::string partial = path + ".partial-XXXXXX";
  const int fd = ::mkstemp(partial.data());
  if (fd < 0) throw IoError(cat("cannot create a file beside ", path, ": ", std::strerror(errno)));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const bool ok = ::fchmod(fd, 0666 & ~mask) == 0;  // mkstemp's 0600 would become the output's
  ::close(fd);
  if (!ok) {
    const std::string why = std::strerror(errno);
    ::unlink(partial.c_str());
    throw IoError(cat("cannot set the permissions of ", partial, ": ", why));
  }
  return partial;
}

PartialOnSignal::PartialOnSignal(const std::string& partial, int rank) {
  const auto keep = [](const std::string& path, char* to, std::size_t size) {
    to[path.copy(to, size - 1)] = '\0';
  };
  keep(partial, signal_partial, sizeof signal_partial);
  keep(cat(partial, ".locktest.", rank), signal_locktest, sizeof signal_locktest);
  for (std::size_t k = 0; k < std::size(kSignals); ++k) {
    struct sigaction current {};
    ::sigaction(kSignals[k], nullptr, &current);
    handled[k] = current.sa_handler == SIG_DFL;
    if (handled[k]) std::signal(kSignals[k], remove_partial_and_stop);
  }
}

void PartialOnSignal::kept() {
  for (std::size_t k = 0; k < std::size(kSignals); ++k)
    if (handled[k]) std::signal(kSignals[k], SIG_IGN);
  signal_partial[0] = '\0';
  kept_ = true;
}

PartialOnSignal::~PartialOnSignal() {
  if (kept_) return;  // the job has succeeded: a late signal leaves it so
  signal_partial[0] = '\0';
  for (std::size_t k = 0; k < std::size(kSignals); ++k)
    if (handled[k]) std::signal(kSignals[k], SIG_DFL);
}

}  // namespace tdcone::io
