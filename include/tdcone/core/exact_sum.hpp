#pragma once
// Order-free sums (docs/spec.md §9): terms are added as 128-bit fixed-point integers,
// so a sum has the same bits whatever the order of its terms, the rank count
// or the chunk size, and the total is rounded to double once.
#include <cmath>
#include <cstdint>

namespace tdcone {

class ExactSum {
 public:
  /// 2^-64 resolution; terms up to 2^62 in magnitude, sums up to 2^63.
  static constexpr int kFractionBits = 64;

  /// Adds term truncated to a multiple of 2^-64 (|term| < 2^62).
  void add(double term) {
    // Integer part, then the fraction in two 32-bit steps: every step is
    // exact in double and a hardware conversion (no floor, no software
    // double -> 128-bit conversion).
    const auto whole = static_cast<std::int64_t>(term);
    const double fraction = (term - static_cast<double>(whole)) * 0x1p32;  // (-2^32, 2^32)
    const auto high = static_cast<std::int64_t>(fraction);
    const auto low = static_cast<std::int64_t>((fraction - static_cast<double>(high)) * 0x1p32);
    value_ += (static_cast<__int128>(whole) << kFractionBits) + (static_cast<__int128>(high) << 32) + low;
  }
  ExactSum& operator+=(const ExactSum& other) {
    value_ += other.value_;
    return *this;
  }
  ExactSum& operator-=(const ExactSum& other) {
    value_ -= other.value_;
    return *this;
  }
  double value() const { return std::ldexp(static_cast<double>(value_), -kFractionBits); }

 private:
  __int128 value_ = 0;
};

}  // namespace tdcone
