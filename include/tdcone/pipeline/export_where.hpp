#pragma once
// `tdcone export --where`: a condition on one column of a result table.
#include <functional>
#include <optional>
#include <string>

#include "tdcone/hdf5/h5file.hpp"

namespace tdcone::pipeline {

/// COLUMN OP NUMBER on a numeric column (OP: < <= > >= == !=; NaN never
/// passes), or COLUMN == 'TEXT' / COLUMN != "TEXT" on a text column (the
/// value in single or double quotes, compared byte for byte).
struct RowCondition {
  const h5::Column* column = nullptr;
  std::string op;
  long double number = 0;           // a numeric column's value
  std::optional<std::string> text;  // a text column's value
  bool holds(std::size_t row) const;
};

/// Parses `condition`; `column_named(name)` gives the table's column of that
/// name (or throws). Throws UsageError naming the condition: bad syntax, a
/// text column with an unquoted value or an order (<, ...), a numeric column
/// with a quoted value or one that is not a number. `group`: "/pairs", for messages.
RowCondition parse_where(const std::string& condition,
                         const std::function<const h5::Column&(const std::string&)>& column_named,
                         const std::string& group);

}  // namespace tdcone::pipeline
