#pragma once
// The checkpoint path of one selection job, owned from its start to its end:
// another job cannot use it meanwhile, and the job replaces or removes only
// a checkpoint that is its own.
#include <string>

#include "tdcone/io/output_lock.hpp"
#include "tdcone/select/checkpoint.hpp"

namespace tdcone::select {

/// Rank 0's hold on the checkpoint path of a selection, for the whole job.
/// A checkpoint is the job's own when the job wrote it, resumed from it
/// (`resume`) or was told to replace it (`force`); any other one found at
/// the start is refused once the selection's fingerprint is known.
class CheckpointFile {
 public:
  /// Checks the path (check_checkpoint_path), then locks it as an output is
  /// locked: throws UsageError, or IoError naming the job that holds it.
  CheckpointFile(std::string path, bool resume, bool force);

  /// Throws UsageError (refuse_found_checkpoint) when a checkpoint that is not
  /// the job's own was at the path at the start. Call before selecting.
  void check_found(const Fingerprint& fingerprint) const;

  /// Writes a checkpoint (write_checkpoint), which is then the job's own.
  void write(const Fingerprint& fingerprint, const SelectionState& state);

  /// Removes the checkpoint at the path if it is the job's own (the last one
  /// it wrote, or the one it resumed from or replaces); a finished selection
  /// must not be resumed.
  void remove_own() const;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  io::OutputLock lock_;
  FileIdentity found_;  // the checkpoint at the path at the start, if any
  FileIdentity own_;    // the checkpoint that is the job's own, if any
};

}  // namespace tdcone::select
