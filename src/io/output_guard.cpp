#include "tdcone/io/output_guard.hpp"

#include <sys/stat.h>

#include <filesystem>

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

}  // namespace tdcone::io
