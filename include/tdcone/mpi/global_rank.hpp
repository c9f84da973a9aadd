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

}  // namespace tdcone::mpi
