#include "tdcone/core/number_text.hpp"

#include <charconv>
#include <cmath>

namespace tdcone {

std::string shortest_text(double value) {
  if (std::isnan(value)) return "nan";
  char text[40];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

}  // namespace tdcone
