#include "tdcone/core/tdcone.hpp"

#include <cmath>

namespace tdcone::entropy {

double tdcone_from_entropy(double cond_entropy, std::uint64_t output_types) {
  if (output_types == 0) return 0.0;
  return cond_entropy / std::log(static_cast<double>(output_types) + 1.0);
}

}  // namespace tdcone::entropy
