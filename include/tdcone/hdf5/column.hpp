#pragma once
// One column of a result table as read back, in the type it is stored as.
#include <cstdint>
#include <string>
#include <vector>

namespace tdcone::hdf5 {

/// One column of a table, in the type it is stored as.
struct Column {
  enum class Kind { unsigned_integer, signed_integer, real, text };
  Kind kind = Kind::real;
  std::vector<std::uint64_t> unsigned_values;  // Kind::unsigned_integer
  std::vector<std::int64_t> signed_values;     // Kind::signed_integer
  std::vector<double> real_values;             // Kind::real
  std::vector<std::string> text_values;        // Kind::text
  std::size_t size() const;
  bool numeric() const { return kind != Kind::text; }
  /// Row `i` as a number (integers converted; for sorting and filters). Not for text.
  long double number(std::size_t i) const;
};

}  // namespace tdcone::hdf5
