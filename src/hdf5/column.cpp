#include "tdcone/hdf5/column.hpp"

#include <limits>

namespace tdcone::hdf5 {

std::size_t Column::size() const {
  switch (kind) {
    case Kind::unsigned_integer: return unsigned_values.size();
    case Kind::signed_integer: return signed_values.size();
    case Kind::real: return real_values.size();
    case Kind::text: return text_values.size();
  }
  return 0;
}

long double Column::number(std::size_t i) const {
  switch (kind) {
    case Kind::unsigned_integer: return static_cast<long double>(unsigned_values[i]);
    case Kind::signed_integer: return static_cast<long double>(signed_values[i]);
    case Kind::real: return real_values[i];
    case Kind::text: break;
  }
  return std::numeric_limits<long double>::quiet_NaN();
}

}  // namespace tdcone::hdf5
