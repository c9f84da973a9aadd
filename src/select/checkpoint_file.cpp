#include "tdcone/select/checkpoint_file.hpp"

#include <string_view>
#include <utility>

#include "tdcone/core/error.hpp"

namespace tdcone::select {

namespace {

// The path checked before it is locked, so that a refused path gets no lock file.
std::string checked(std::string path, bool resume) {
  check_checkpoint_path(path, resume);
  return path;
}

// OutputLock's refusal ends by suggesting another --output; here the choice is another --checkpoint.
io::OutputLock lock(const std::string& path) {
  try {
    return io::OutputLock(path);
  } catch (const IoError& e) {
    std::string message = e.what();
    constexpr std::string_view output = "--output";
    if (message.ends_with(output)) message.replace(message.size() - output.size(), output.size(), "--checkpoint");
    throw IoError(cat("--checkpoint ", path, ": ", message));
  }
}

}  // namespace

CheckpointFile::CheckpointFile(std::string path, bool resume, bool force)
    : path_(checked(std::move(path), resume)), lock_(lock(path_)), found_(identity_of(path_)) {
  if (resume || force) own_ = found_;
}

void CheckpointFile::check_found(const Fingerprint& fingerprint) const {
  if (found_ == FileIdentity{} || own_ == found_ || identity_of(path_) != found_) return;
  refuse_found_checkpoint(path_, fingerprint);
}

void CheckpointFile::write(const Fingerprint& fingerprint, const SelectionState& state) {
  own_ = write_checkpoint(path_, fingerprint, state);
}

void CheckpointFile::remove_own() const {
  if (own_ != FileIdentity{} && identity_of(path_) == own_) remove_checkpoint(path_);
}

}  // namespace tdcone::select
