#include "tdcone/synth/zipf_sampler.hpp"

#include <cmath>

namespace tdcone::synth {

ZipfSampler::ZipfSampler(std::uint32_t n, double exponent, double offset) : threshold_(n), alias_(n) {
  std::vector<double> scaled(n);
  double total = 0;
  for (std::uint32_t k = 0; k < n; ++k) total += scaled[k] = std::pow(k + 1.0 + offset, -exponent);
  for (auto& p : scaled) p *= n / total;
  std::vector<std::uint32_t> small, large;
  for (std::uint32_t k = 0; k < n; ++k) (scaled[k] < 1 ? small : large).push_back(k);
  while (!small.empty() && !large.empty()) {
    const auto s = small.back(), l = large.back();
    small.pop_back();
    large.pop_back();
    threshold_[s] = static_cast<std::uint64_t>(scaled[s] * 0x1.0p32);
    alias_[s] = l;
    scaled[l] += scaled[s] - 1;
    (scaled[l] < 1 ? small : large).push_back(l);
  }
  for (auto k : small) threshold_[k] = std::uint64_t{1} << 32, alias_[k] = k;  // rounding leftovers
  for (auto k : large) threshold_[k] = std::uint64_t{1} << 32, alias_[k] = k;
}

}  // namespace tdcone::synth
