// The last resort of the failure protocol: rank 1 fails while rank 0 is stuck
// in a collective call that needs rank 1 (MPI_Barrier here; in real life a
// collective inside HDF5 after an I/O error). Rank 1 must stop the job after
// its patience, print its message and run its abort cleanups.
// Usage: tdcone_fault_probe FILE PATIENCE_SECONDS (the --stall-timeout; FILE is removed by the cleanup).
#include <mpi.h>

#include <cstdio>
#include <string>

#include "tdcone/cli/option_names.hpp"
#include "tdcone/mpi/guard.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  tdcone::cli::install_option_names();  // its message names --stall-timeout, as tdcone's does
  {
    const tdcone::mpi::FailureChannel failures(MPI_COMM_WORLD);
    const std::string file = argv[1];
    const tdcone::mpi::AbortCleanup cleanup([&] { std::remove(file.c_str()); });
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    tdcone::mpi::set_failure_patience(std::stod(argv[2]));  // as --stall-timeout does
    if (rank == 1) tdcone::mpi::first_failure(MPI_COMM_WORLD, 3, "the probe failed on purpose");
    MPI_Barrier(MPI_COMM_WORLD);  // never completes: rank 1 is not coming
  }
  MPI_Finalize();
  return 0;
}
