#pragma once
// Checkpoints of a selection (docs/spec.md §9). A checkpoint file is
//   "tdcone-checkpoint-2\n"   magic and format version,
//   16 bytes                 XXH3-128 of the rest (canonical, big-endian),
//   40 bytes                 the Fingerprint (5 × u64, host order),
//   the rest                 one zstd frame of a headerless Boost.Serialization binary
//                            archive of the SelectionState.
// The checksum and the fingerprint are verified before anything is
// decompressed, and every index and count of the state before the selection
// continues from it. Written under a temporary name and renamed.
#include <cstdint>
#include <string>

#include "tdcone/select/cynical.hpp"

namespace tdcone::select {

/// What a selection's result depends on, in parts that are each the same for
/// any number of ranks, so that a refusal can say which part differs.
struct Fingerprint {
  std::uint64_t options = 0;  // the options that change the ranking
  // The text and position of every line of each corpus; 0 for one not given.
  std::uint64_t representative = 0, available = 0, unadapted = 0, seed = 0;

  bool operator==(const Fingerprint&) const = default;
};

/// The selection a checkpoint must belong to, and the sizes its indices must fit.
struct CheckpointKey {
  Fingerprint fingerprint;
  std::uint64_t available_lines = 0;  // AVAIL lines: pair ids are below it
  std::uint64_t lexicon_size = 0;     // word ids are below it; the model has a count per word
};

/// Which file a name holds (device and inode); {} for none or not a regular file.
struct FileIdentity {
  std::uint64_t device = 0, inode = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity identity_of(const std::string& path);

/// Writes `state` to `path` atomically and returns the file's identity.
/// Throws IoError, also when `path` holds something that is not a checkpoint
/// (it is never replaced).
FileIdentity write_checkpoint(const std::string& path, const Fingerprint& fingerprint, const SelectionState& state);

/// Reads and verifies a checkpoint, without MPI: header, checksum, fingerprint,
/// and every index and count that can be checked without the corpora (see
/// select_lines for the rest). Throws UsageError saying what is wrong.
SelectionState read_checkpoint(const std::string& path, const CheckpointKey& key);

/// Throws UsageError unless `path` can take this run's checkpoint: absent
/// (not with `resume`) or a tdcone checkpoint file, in a folder where a file
/// can be created (one is made and removed). Call before any long work.
void check_checkpoint_path(const std::string& path, bool resume);

/// For a run without --resume that found a checkpoint at `path` and may not
/// replace it: throws UsageError saying whether it is this selection's
/// (`fingerprint`: --resume continues it), another's (which parts differ) or
/// unreadable, and that --force replaces it.
[[noreturn]] void refuse_found_checkpoint(const std::string& path, const Fingerprint& fingerprint);

/// Removes the checkpoint of a finished selection; leaves alone a file that is
/// not a checkpoint, and only warns when removal fails.
void remove_checkpoint(const std::string& path);

}  // namespace tdcone::select
