#pragma once
// Ranking items spread over ranks without gathering them on one rank.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

namespace tdcone::mpi {

/// 1-based position of every local item in the global order: key ascending,
/// NaN keys after all others, ties by id. This rank's items have ids
/// [first_id, first_id + keys.size()). Distributed sample sort; collective.
std::vector<std::uint64_t> global_ranks(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id);

/// 1-based position of every local item within its group (items of group g
/// < n_groups, over all ranks, in global_ranks order); 0 for items whose
/// group is n_groups or more (in no group). Collective.
std::vector<std::uint64_t> global_ranks_within(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id,
                                               std::span<const std::uint32_t> groups, std::uint32_t n_groups);

struct GroupedRanks {
  std::vector<std::uint64_t> overall;       // global_ranks
  std::vector<std::uint64_t> within_group;  // global_ranks_within (empty when n_groups = 0)
};
/// Both orders from one distributed sort. Collective.
GroupedRanks global_ranks_grouped(MPI_Comm comm, std::span<const double> keys, std::uint64_t first_id,
                                  std::span<const std::uint32_t> groups, std::uint32_t n_groups);

}  // namespace tdcone::mpi
