#pragma once
// Numbers as text for people and for files read back.
#include <string>

namespace tdcone {

/// The shortest text that reads back as the same double ("0.1", "1e+300",
/// "inf"); "nan" for any NaN.
std::string shortest_text(double value);

}  // namespace tdcone
