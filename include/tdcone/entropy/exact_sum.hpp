#pragma once
// Order-free sums (SPEC §9): terms are added as 128-bit fixed-point integers,
// so a sum has the same bits whatever the order of its terms, the rank count
// or the chunk size, and the total is rounded to double once.
#include <mpi.h>

#include <cmath>
#include <vector>

namespace tdcone::entropy {

class ExactSum {
 public:
  /// 2^-64 resolution; terms up to 2^62 in magnitude, sums up to 2^63.
  static constexpr int kFractionBits = 64;

  void add(double term) { value_ += static_cast<__int128>(std::ldexp(term, kFractionBits)); }
  ExactSum& operator+=(const ExactSum& other) {
    value_ += other.value_;
    return *this;
  }
  double value() const { return std::ldexp(static_cast<double>(value_), -kFractionBits); }

 private:
  __int128 value_ = 0;
};

/// Element-wise exact sums over all ranks. Collective.
std::vector<double> sum_all(MPI_Comm comm, const std::vector<ExactSum>& sums);

}  // namespace tdcone::entropy
