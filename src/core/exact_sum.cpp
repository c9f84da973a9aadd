#include "tdcone/core/exact_sum.hpp"

namespace tdcone::entropy {

namespace {
// Integer addition is associative and commutative, so MPI may combine in any order.
void add_sums(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* a = static_cast<const ExactSum*>(in);
  auto* b = static_cast<ExactSum*>(inout);
  for (int i = 0; i < *length; ++i) b[i] += a[i];
}
}  // namespace

std::vector<double> sum_all(MPI_Comm comm, const std::vector<ExactSum>& sums) {
  MPI_Datatype type;
  MPI_Type_contiguous(sizeof(ExactSum), MPI_BYTE, &type);
  MPI_Type_commit(&type);
  MPI_Op op;
  MPI_Op_create(add_sums, 1, &op);
  std::vector<ExactSum> total(sums.size());
  MPI_Allreduce(sums.data(), total.data(), static_cast<int>(sums.size()), type, op, comm);
  MPI_Op_free(&op);
  MPI_Type_free(&type);
  std::vector<double> values(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) values[i] = total[i].value();
  return values;
}

}  // namespace tdcone::entropy
