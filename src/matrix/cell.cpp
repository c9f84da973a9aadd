// The fixed-point weights and the column code of the cell encoding (cell.hpp).
#include "tdcone/matrix/cell.hpp"

#include <bit>
#include <cmath>

namespace tdcone::matrix {

WeightScale::WeightScale(std::uint64_t pairs)
    : fraction_bits_(62 - static_cast<int>(std::bit_width(std::max<std::uint64_t>(pairs, 1)))),
      unit_(std::ldexp(1.0, -fraction_bits_)) {}

std::uint64_t WeightScale::fixed(double weight) const {
  const auto units = static_cast<std::uint64_t>(std::llround(std::ldexp(weight, fraction_bits_)));
  return std::max<std::uint64_t>(units, 1);
}

void CellEncoding::code_columns(unsigned bits) {
  column_bits = bits;
  // Fibonacci hashing on the column's bits: the golden ratio's fraction of
  // 2^column_bits spreads ids that are near each other (the frequent words
  // have the lowest) over the top bits of their codes, where the row table
  // takes a key's slot from. Odd, so the code is a bijection.
  const double golden_fraction = 0.6180339887498949;
  code_multiplier = static_cast<std::uint32_t>(std::ldexp(golden_fraction, static_cast<int>(column_bits))) | 1u;
  code_inverse = code_multiplier;  // right in 3 bits; each step doubles them
  for (int step = 0; step < 4; ++step) code_inverse *= 2u - code_multiplier * code_inverse;
}

}  // namespace tdcone::matrix
