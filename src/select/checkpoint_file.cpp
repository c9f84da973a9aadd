#include "tdcone/select/checkpoint_file.hpp"

#include <utility>

#include "tdcone/core/error.hpp"

namespace tdcone::select {

namespace {

// The path checked before it is locked, so that a refused path gets no lock file.
std::string checked(std::string path, bool resume) {
  check_checkpoint_path(path, resume);
  return path;
}

}  // namespace

CheckpointFile::CheckpointFile(std::string path, bool resume, bool force)
    : path_(checked(std::move(path), resume)), lock_(path_, Option::checkpoint), found_(identity_of(path_)) {
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
