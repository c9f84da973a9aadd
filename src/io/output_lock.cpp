#include "tdcone/io/output_lock.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <thread>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/io/output_guard.hpp"

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

// Refuses what is at `path` where tdcone creates a file, unless it is a
// regular file: a link is never followed, whatever it points at.
void refuse_unless_regular(const std::string& path, const std::string& what, Option option) {
  if (const std::string problem = why_not_a_regular_file(path); !problem.empty())
    throw IoError(cat("cannot use ", what, " ", path, ": ", problem, "; remove it, or choose another ", option));
}

// Whether `fd` still is the file at `path` (not removed or replaced meanwhile).
bool still_named(int fd, const std::string& path) {
  struct stat ours, named;
  return ::fstat(fd, &ours) == 0 && ::lstat(path.c_str(), &named) == 0 && ours.st_dev == named.st_dev &&
         ours.st_ino == named.st_ino;
}

// The line the holder of a lock wrote in it, waiting a moment for it: the
// holder writes it just after it takes the lock.
std::string holder_of(int fd) {
  std::string who;
  for (int attempt = 0; attempt < 50 && who.empty(); ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    char holder[300] = {};
    const ssize_t got = ::pread(fd, holder, sizeof holder - 1, 0);
    who = got > 0 ? std::string(holder, static_cast<std::size_t>(got)) : "";
    if (!who.empty() && who.back() != '\n') who.clear();  // still being written
  }
  while (!who.empty() && who.back() == '\n') who.pop_back();
  return who;
}

}  // namespace

OutputLock::OutputLock(const std::string& path, Option option) : lock_path_(path + ".lock") {
  const char* lock = lock_path_.c_str();
  for (;;) {
    // Our own new file, or the one a job left (never through a link: O_NOFOLLOW).
    int fd = ::open(lock, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    const bool created = fd >= 0;
    if (!created && errno == EEXIST) {
      refuse_unless_regular(lock_path_, "the lock file", option);
      fd = ::open(lock, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0 && errno == ENOENT) continue;  // its holder removed it meanwhile
    }
    if (fd < 0) {
      const int error = errno;
      refuse_unless_regular(lock_path_, "the lock file", option);  // a link put there meanwhile (ELOOP)
      throw IoError(cat("cannot create the lock file ", lock_path_, ": ", std::strerror(error)));
    }
    struct stat opened;
    if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
      ::close(fd);
      refuse_unless_regular(lock_path_, "the lock file", option);
      throw IoError(cat("cannot use the lock file ", lock_path_, ": it is not a regular file"));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error == EWOULDBLOCK) {
        // A holder that replaces a stale file removes it with the lock held: try the new one.
        if (!still_named(fd, lock_path_)) {
          ::close(fd);
          continue;
        }
        const std::string who = holder_of(fd);
        ::close(fd);
        throw IoError(cat("another tdcone job is writing ", path, " (lock ", lock_path_, " held",
                          who.empty() ? "" : " by " + who, "): wait for it or choose another ", option));
      }
      ::close(fd);
      if (created) ::unlink(lock);
      if (error == ENOLCK || error == EOPNOTSUPP || error == EINVAL) return;  // no locks here: go on without
      throw IoError(cat("cannot lock ", lock_path_, ": ", std::strerror(error)));
    }
    // The holder before us may have removed the file between our open and
    // our lock: then the lock is on a file nobody else sees; take it anew.
    if (!still_named(fd, lock_path_)) {
      ::close(fd);
      continue;
    }
    if (!created) {
      // A killed job's file (its lock died with it), or someone's hard link:
      // never written into. Removed while we hold its lock, and replaced by
      // a file of our own.
      const bool removed = ::unlink(lock) == 0;
      const int error = errno;
      ::close(fd);
      if (!removed && error != ENOENT)
        throw IoError(cat("cannot remove the lock file ", lock_path_, " a stopped job left: ", std::strerror(error)));
      continue;
    }
    fd_ = fd;
    break;
  }
  signal_lock[lock_path_.copy(signal_lock, sizeof signal_lock - 1)] = '\0';
  const std::string holder = cat("pid ", ::getpid(), " on ", host_name(), "\n");
  // Only for the message of a refused job: a failed write is no reason to stop.
  (void)!::pwrite(fd_, holder.data(), holder.size(), 0);
  remove_stale_partials(path);
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  signal_lock[0] = '\0';
  ::unlink(lock_path_.c_str());  // before the lock goes: no other job holds this file
  ::close(fd_);
}

PartialFile create_partial_file(const std::string& path) {
  PartialFile partial{path + ".partial-XXXXXX", -1};
  // mkstemp opens with O_CREAT | O_EXCL: a new file, never one behind a link.
  partial.fd = ::mkostemp(partial.path.data(), O_CLOEXEC);
  if (partial.fd < 0) throw IoError(cat("cannot create a file beside ", path, ": ", std::strerror(errno)));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(partial.fd, 0666 & ~mask) != 0) {  // mkstemp's 0600 would become the output's
    const std::string why = std::strerror(errno);
    ::close(partial.fd);
    ::unlink(partial.path.c_str());
    throw IoError(cat("cannot set the permissions of ", partial.path, ": ", why));
  }
  return partial;
}

std::string create_partial(const std::string& path) {
  const PartialFile partial = create_partial_file(path);
  ::close(partial.fd);
  return partial.path;
}

bool is_partial_name(const std::string& name, const std::string& output_name) {
  const std::string prefix = output_name + ".partial-";
  constexpr std::size_t kRandom = 6;  // the XXXXXX mkstemp fills
  if (name.size() < prefix.size() + kRandom || name.compare(0, prefix.size(), prefix) != 0) return false;
  for (std::size_t k = prefix.size(); k < prefix.size() + kRandom; ++k)
    if (!std::isalnum(static_cast<unsigned char>(name[k]))) return false;
  const std::string rest = name.substr(prefix.size() + kRandom);
  const std::string locktest = ".locktest.";
  if (rest.empty()) return true;
  if (rest.compare(0, locktest.size(), locktest) != 0 || rest.size() == locktest.size()) return false;
  return std::all_of(rest.begin() + static_cast<std::ptrdiff_t>(locktest.size()), rest.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

void remove_stale_partials(const std::string& path) {
  const std::filesystem::path output(path);
  const std::filesystem::path folder = output.has_parent_path() ? output.parent_path() : ".";
  const std::string name = output.filename().string();
  DIR* listing = ::opendir(folder.c_str());
  if (!listing) return;  // nothing to tidy where nothing can be listed
  const int folder_fd = ::dirfd(listing);
  std::vector<std::string> removed;
  while (const dirent* entry = ::readdir(listing)) {
    if (!is_partial_name(entry->d_name, name)) continue;
    struct stat found;
    if (::fstatat(folder_fd, entry->d_name, &found, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(found.st_mode)) continue;
    if (::unlinkat(folder_fd, entry->d_name, 0) == 0) removed.emplace_back(entry->d_name);
  }
  ::closedir(listing);
  for (const std::string& file : removed)
    std::fprintf(stderr, "tdcone: removed %s, a temporary file a stopped job left\n",
                 (output.has_parent_path() ? (folder / file).string() : file).c_str());
}

void commit_partial(const std::string& partial, const std::string& path, bool replace) {
  if (const std::string problem = why_not_a_regular_file(path); !problem.empty())
    throw IoError(cat("cannot write ", path, ": ", problem, "; ", partial, " is removed"));
  if (replace) {
    if (::rename(partial.c_str(), path.c_str()) != 0)  // replaces a file atomically, never follows a link
      throw IoError(cat("cannot rename ", partial, " to ", path, ": ", std::strerror(errno)));
    return;
  }
  // Not replacing whatever appeared at `path` since the start: a hard link
  // fails if anything is there, then the temporary name goes.
  if (::renameat2(AT_FDCWD, partial.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) return;
  int error = errno;
  if (error == EINVAL || error == ENOSYS) {  // a file system without RENAME_NOREPLACE
    if (::link(partial.c_str(), path.c_str()) == 0) {
      ::unlink(partial.c_str());
      return;
    }
    error = errno;
  }
  if (error == EEXIST)
    throw IoError(cat("cannot write ", path, ": a file appeared there while this job ran; it is left as it is"));
  throw IoError(cat("cannot rename ", partial, " to ", path, ": ", std::strerror(error)));
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
