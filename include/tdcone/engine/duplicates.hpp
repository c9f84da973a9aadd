#pragma once
// Duplicates and source groups (tdcone score --dedup): the pairs grouped by
// their keys over all ranks (mpi/key_groups.hpp) between reading and
// aligning, flagged, and held compactly until /pairs is written.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::engine {

/// Global counts of a run with --dedup (the same on every rank).
struct DuplicateCounts {
  std::uint64_t duplicates = 0;    // pairs flagged duplicate
  std::uint64_t in_reference = 0;  // pairs flagged in_reference
  bool with_reference = false;
};

/// This rank's dup_of, src_group and src_group_size, a few bytes a pair: the
/// duplicates' first occurrences in local order, and an index per pair into
/// the source groups of two or more pairs that this rank's pairs belong to.
class Duplicates {
 public:
  /// Groups the pairs of `corpus` by their pair keys and by their input-side
  /// keys over all ranks; flags every later copy of a pair duplicate and,
  /// with `reference`, every pair whose key is also a reference pair's
  /// in_reference. Drops the keys of both shares (the align phase has their
  /// memory). Collective.
  static Duplicates find(const boost::mpi::communicator& comm, text::TokenizedShare& corpus,
                         text::TokenizedShare* reference);

  const DuplicateCounts& counts() const { return counts_; }

  /// Writes /pairs dup_of, src_group, src_group_size for this rank's rows of
  /// `share` (the corpus found on), and the /corpus counts. Collective.
  void write(hdf5::OutputFile& file, const text::TokenizedShare& share) const;

 private:
  DuplicateCounts counts_;
  std::vector<std::uint64_t> first_of_duplicate_;  // dup_of of each local pair flagged duplicate, in order
  std::vector<std::uint32_t> src_group_index_;     // per local pair: 0, a group of its own; k, src_groups_[k - 1]
  std::vector<std::pair<std::uint64_t, std::uint64_t>> src_groups_;  // (first pair_id, size)
};

}  // namespace tdcone::engine
