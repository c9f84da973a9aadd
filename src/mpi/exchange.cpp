#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

template <>
double sum_all(MPI_Comm comm, double value) {
  double total = 0.0;
  MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total;
}

template <>
std::uint64_t sum_all(MPI_Comm comm, std::uint64_t value) {
  std::uint64_t total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  return total;
}

}  // namespace tdcone::mpi
