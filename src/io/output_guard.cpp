#include "tdcone/io/output_guard.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "posix_file.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"

namespace tdcone::io {

namespace fs = std::filesystem;

void refuse_writing_over_inputs(const std::string& option, const std::string& output,
                                const std::vector<ReadFiles>& inputs) {
  if (output.empty() || output == "-") return;
  struct stat target;
  const bool exists = ::stat(output.c_str(), &target) == 0;
  // A device or FIFO is refused by the output checks, or written through
  // (e.g. /dev/stdout on a terminal that is also /dev/stdin).
  if (exists && !S_ISREG(target.st_mode)) return;
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(output, ec);
  for (const ReadFiles& read : inputs)
    for (const std::string& pattern : read.patterns) {
      std::vector<std::string> paths;
      try {
        paths = expand_pattern(pattern);
      } catch (const UsageError&) {
        continue;  // a missing input: its reader says so, in its turn
      }
      for (const std::string& path : paths) {
        struct stat input;
        if (::stat(path.c_str(), &input) != 0) continue;
        std::error_code input_ec;
        const bool same = exists ? input.st_dev == target.st_dev && input.st_ino == target.st_ino
                                 : !ec && fs::weakly_canonical(path, input_ec) == resolved && !input_ec;
        if (same)
          throw UsageError(cat(option, " ", output, " is ", path == output ? "" : path + ", ", read.what,
                               ": tdcone never writes over its inputs; choose another ",
                               option));
      }
    }
}

std::string why_not_a_regular_file(const std::string& path) {
  struct stat entry;
  if (::lstat(path.c_str(), &entry) != 0) return "";
  if (S_ISREG(entry.st_mode)) return "";
  if (S_ISLNK(entry.st_mode)) return cat(path, " is a symbolic link, which tdcone will not follow");
  return cat(path, " is ", file_kind(entry.st_mode), ", not a regular file");
}

std::string folder_problem(const std::string& path) {
  fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) folder = ".";
  struct stat entry;
  if (::stat(folder.c_str(), &entry) == 0) {
    if (!S_ISDIR(entry.st_mode)) return cat(folder.string(), " is not a directory (it is ", file_kind(entry.st_mode), ")");
    if (::access(folder.c_str(), W_OK | X_OK) != 0) return cat("directory ", folder.string(), " is not writable");
    return "";
  }
  const int error = errno;
  if (error == ENOTDIR) {
    // Some folder on the way is not one: name the first, as the user wrote it.
    fs::path prefix;
    for (const fs::path& part : folder) {
      prefix /= part;
      if (::stat(prefix.c_str(), &entry) == 0 && !S_ISDIR(entry.st_mode))
        return cat(prefix.string(), " is not a directory (it is ", file_kind(entry.st_mode), ")");
    }
  }
  if (error == ENOENT) return cat("directory ", folder.string(), " does not exist");
  return cat("cannot reach directory ", folder.string(), ": ", std::strerror(error));
}

}  // namespace tdcone::io
