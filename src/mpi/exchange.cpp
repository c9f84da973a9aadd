#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

template <>
std::vector<double> sum_all(MPI_Comm comm, const std::vector<double>& values) {
  std::vector<double> total(values.size());
  MPI_Allreduce(values.data(), total.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, comm);
  return total;
}

template <>
std::vector<std::uint64_t> sum_all(MPI_Comm comm, const std::vector<std::uint64_t>& values) {
  std::vector<std::uint64_t> total(values.size());
  MPI_Allreduce(values.data(), total.data(), static_cast<int>(values.size()), MPI_UINT64_T, MPI_SUM, comm);
  return total;
}

}  // namespace tdcone::mpi
