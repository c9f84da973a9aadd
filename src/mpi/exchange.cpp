#include "tdcone/mpi/exchange.hpp"

namespace tdcone::mpi {

namespace {
// Integer addition is associative and commutative, so MPI may combine in any order.
void add_exact_sums(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* a = static_cast<const ExactSum*>(in);
  auto* b = static_cast<ExactSum*>(inout);
  for (int i = 0; i < *length; ++i) b[i] += a[i];
}
}  // namespace

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

std::vector<double> sum_all(MPI_Comm comm, const std::vector<ExactSum>& sums) {
  const detail::RecordType type(sizeof(ExactSum));
  MPI_Op op;
  MPI_Op_create(add_exact_sums, 1, &op);
  std::vector<ExactSum> total(sums.size());
  MPI_Allreduce(sums.data(), total.data(), static_cast<int>(sums.size()), type.get(), op, comm);
  MPI_Op_free(&op);
  std::vector<double> values(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) values[i] = total[i].value();
  return values;
}

}  // namespace tdcone::mpi
