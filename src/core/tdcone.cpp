#include "tdcone/core/tdcone.hpp"

#include <array>
#include <cmath>

namespace tdcone {

double tdcone_from_entropy(double cond_entropy, std::uint64_t output_types) {
  if (output_types == 0) return 0.0;
  return cond_entropy / log_of_count(output_types + 1);
}

double log_of_count(std::uint64_t n) {
  static const std::array<double, 1024> small = [] {
    std::array<double, 1024> logs{};
    for (std::size_t k = 0; k < logs.size(); ++k) logs[k] = std::log(static_cast<double>(k));
    return logs;
  }();
  return n < small.size() ? small[n] : std::log(static_cast<double>(n));
}

}  // namespace tdcone
