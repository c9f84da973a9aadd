#pragma once
// Writing an output beside its final name, safe from other jobs, signals and
// links: every file tdcone creates here is new (O_CREAT | O_EXCL), so a
// symbolic link planted where one should be is never followed.
#include <string>

#include "tdcone/core/option.hpp"

namespace tdcone::io {

/// An exclusive lock on `path + ".lock"` for as long as this job writes
/// `path`: another job that wants to write `path` meanwhile is refused at
/// once. An flock dies with its process, so a lock file a killed job left
/// behind blocks nobody: it is replaced by a new one. On a file system
/// without locks, no lock is taken.
///
/// Once the lock is held, no live job writes `path`: the temporary files
/// `path.partial-XXXXXX` a killed job left are removed (regular files only),
/// each named in one line on standard error.
class OutputLock {
 public:
  /// Throws IoError naming the job that holds the lock (its pid and host), or
  /// naming the lock file when it is a symbolic link or not a regular file;
  /// the message suggests another `option` (the one that named `path`).
  explicit OutputLock(const std::string& path, Option option = Option::output);
  ~OutputLock();  // removes the lock file, while still holding it
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  /// Whether a lock is held (false only on a file system without locks).
  bool held() const { return fd_ >= 0; }

 private:
  std::string lock_path_;
  int fd_ = -1;
};

/// A temporary file created by create_partial_file, and its open descriptor
/// (read-write), which the caller owns and closes.
struct PartialFile {
  std::string path;
  int fd = -1;
};

/// Creates a new empty file `path + ".partial-XXXXXX"`, a name no other job
/// uses, with the permissions of any new file (the umask's). Write through
/// `fd`: the name could be replaced by someone who may write in the folder.
PartialFile create_partial_file(const std::string& path);

/// create_partial_file for a writer that must open the file by name (MPI-IO):
/// the file is created and closed, and its name returned.
std::string create_partial(const std::string& path);

/// Whether `name` (a file name, no folder) is one create_partial_file gives
/// for an output named `output_name`, or one Open MPI makes beside it
/// (`.locktest.RANK`).
bool is_partial_name(const std::string& name, const std::string& output_name);

/// Removes the temporary files of `path` (is_partial_name) that are regular
/// files, never following a link, and prints one line on standard error
/// naming each. Call only while holding OutputLock on `path`.
void remove_stale_partials(const std::string& path);

/// Renames `partial` to `path`. Throws IoError when `path` is a symbolic link
/// (it is neither followed nor replaced) or anything but a regular file, or
/// when it exists and `replace` is false (then nothing that appeared there
/// meanwhile is replaced either).
void commit_partial(const std::string& partial, const std::string& path, bool replace);

/// While it lives, SIGTERM, SIGINT and SIGHUP remove `partial` (and the
/// `partial.locktest.RANK` Open MPI makes while opening it) and the lock file
/// of the OutputLock this process holds, before they end the process as they
/// would have (where their action is the default: `select` catches SIGTERM
/// itself); after kept(), once the partial file has its final name, they are
/// ignored, so that a finished job reports success.
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
