#pragma once
// An output never replaces an input: checked before any work, --force or not.
#include <string>
#include <vector>

namespace tdcone::io {

/// The files a command reads through one option, as given (paths or globs).
struct ReadFiles {
  std::string what;  // "the corpus given with --input"
  std::vector<std::string> patterns;
};

/// Throws UsageError naming the option and the input when `output` (given with `option`)
/// is a file of `inputs`: the same file (device and inode, so also through a
/// symlink, a hard link or another spelling of the path) or, while it does
/// not exist, the same path once resolved. Inputs that do not exist are left
/// to the readers to report. Standard output ("-") is never an input.
void refuse_writing_over_inputs(const std::string& option, const std::string& output,
                                const std::vector<ReadFiles>& inputs);

}  // namespace tdcone::io
