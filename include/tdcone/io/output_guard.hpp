#pragma once
// Where an output may go: never over an input, never through a link, only
// into a folder that exists. Checked before any work, --force or not.
#include <string>
#include <vector>

namespace tdcone::io {

/// The files a command reads through one option, as given (paths or globs).
struct ReadFiles {
  std::string what;  // "the corpus given with <input>"
  std::vector<std::string> patterns;
};

/// Throws UsageError naming the option and the input when `output` (given with `option`)
/// is a file of `inputs`: the same file (device and inode, so also through a
/// symlink, a hard link or another spelling of the path) or, while it does
/// not exist, the same path once resolved. Inputs that do not exist are left
/// to the readers to report. Standard output ("-") is never an input.
void refuse_writing_over_inputs(const std::string& option, const std::string& output,
                                const std::vector<ReadFiles>& inputs);

/// Why tdcone may not create or replace a file at `path` itself (the link is
/// not followed): "" when nothing is there or a regular file is; else a
/// phrase starting with the path, e.g. "out.h5 is a symbolic link, which
/// tdcone will not follow" or "out.h5 is a directory".
std::string why_not_a_regular_file(const std::string& path);

/// Why no new file can be created at `path` in its folder: "" when it can;
/// else e.g. "afile is not a directory (it is a file)", "directory no/dir
/// does not exist", "directory ro is not writable". For every output and
/// checkpoint path.
std::string folder_problem(const std::string& path);

}  // namespace tdcone::io
