#pragma once
// This rank's place in MPI_COMM_WORLD, and whether every rank agrees: what
// the multi-rank tests ask of the world around them.
#include <mpi.h>

namespace tdcone::test_support {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// True on every rank iff `ok` on every rank.
inline bool all_agree(bool ok) {
  int local = ok ? 1 : 0, global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return global == 1;
}

}  // namespace tdcone::test_support
