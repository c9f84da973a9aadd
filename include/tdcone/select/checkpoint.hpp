#pragma once
// Checkpoints of a selection (SPEC §9): a Boost.Serialization archive of the
// SelectionState, zstd-compressed, written under a temporary name and renamed.
#include <string>

#include "tdcone/select/cynical.hpp"

namespace tdcone::select {

/// Writes `state` to `path` atomically. Throws IoError.
void write_checkpoint(const std::string& path, const SelectionState& state);

/// Reads a checkpoint; throws UsageError when the file is missing, corrupt,
/// or was written for other inputs or options (another `fingerprint`).
SelectionState read_checkpoint(const std::string& path, std::uint64_t fingerprint);

}  // namespace tdcone::select
