#pragma once
// A column of a result as text, one entry per row: what export writes of it.
#include <string>
#include <vector>

#include "tdcone/hdf5/column.hpp"

namespace tdcone::results {

/// Every row of `column` as text: integers in decimal, reals as the shortest
/// text that reads back as the same double ("nan", "inf", "-inf" included),
/// strings as stored.
std::vector<std::string> column_text(const hdf5::Column& column);

}  // namespace tdcone::results
