#pragma once
// Writing an output beside its final name, safe from other jobs and signals.
#include <string>

namespace tdcone::io {

/// An exclusive lock on `path + ".lock"` for as long as this job writes
/// `path`: another job that wants to write `path` meanwhile is refused at
/// once. An flock dies with its process, so a lock file a killed job left
/// behind blocks nobody. On a file system without locks, no lock is taken.
class OutputLock {
 public:
  /// Throws IoError naming the job that holds the lock (its pid and host).
  explicit OutputLock(const std::string& path);
  ~OutputLock();  // removes the lock file, while still holding it
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

/// Creates a new empty file `path + ".partial-XXXXXX"`, a name no other job
/// uses, with the permissions of any new file (the umask's), and returns it.
std::string create_partial(const std::string& path);

/// While it lives, SIGTERM, SIGINT and SIGHUP remove `partial` (and the
/// `partial.locktest.RANK` Open MPI makes while opening it) before they
/// end the process as they would have (where their action is the default:
/// `select` catches SIGTERM itself); after kept(), once the partial file has
/// its final name, they are ignored, so that a finished job reports success.
class PartialOnSignal {
 public:
  PartialOnSignal(const std::string& partial, int rank);
  ~PartialOnSignal();
  PartialOnSignal(const PartialOnSignal&) = delete;
  PartialOnSignal& operator=(const PartialOnSignal&) = delete;
  void kept();

 private:
  bool kept_ = false;
};

}  // namespace tdcone::io
