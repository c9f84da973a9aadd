#pragma once
// `tdcone export --where`: a condition on one column of a result table.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "tdcone/hdf5/h5file.hpp"

namespace tdcone::exporting {

/// COLUMN OP NUMBER on a numeric column (OP: < <= > >= == !=; NaN never
/// passes), COLUMN == 'TEXT' / COLUMN != "TEXT" on a text column (the
/// value in single or double quotes, compared byte for byte), or
/// flags.BIT or markers.BIT == 0|1 / != 0|1 on one bit of a flags or markers
/// column, by its name (schema/pair_flags.hpp, schema/pair_markers.hpp:
/// flags.duplicate==0, markers.tgt_url==0).
struct RowCondition {
  const hdf5::Column* column = nullptr;
  std::string op;
  long double number = 0;           // a numeric column's value
  std::optional<std::string> text;  // a text column's value
  std::uint64_t bit = 0;            // COLUMN.BIT: the bit, whose value (0 or 1) is compared
  bool holds(std::size_t row) const;
};

/// The longest condition accepted, in bytes: far more than any real one, and
/// the bound on what a refusal repeats.
inline constexpr std::size_t kMaxWhereLength = 4096;

/// A condition cut into its parts as written, its columns not yet looked up.
struct WhereParts {
  std::string column;
  std::string bit;  // COLUMN.BIT: the name after the dot; empty when none
  std::string op;
  std::string value;  // without its quotes
  bool quoted = false;
};

/// Cuts `condition` (COLUMN[.BIT] OP VALUE, spaces around the parts allowed;
/// VALUE 'text', "text" or a word without spaces) in one pass without
/// recursion. Throws UsageError when it is longer than kMaxWhereLength or has
/// another shape. Needs no file: select and balance check every condition
/// this way on every rank before any work.
WhereParts split_where(const std::string& condition);

/// Parses `condition`; `column_named(name)` gives the table's column of that
/// name (or throws). Throws UsageError naming the condition: its shape or
/// length (split_where), a text column with an unquoted value or an order
/// (<, ...), a numeric column with a quoted value or one that is not a number,
/// a bit that no flag has or a bit compared with anything but == or != 0 or 1.
/// `group`: "/pairs", for messages.
RowCondition parse_where(const std::string& condition,
                         const std::function<const hdf5::Column&(const std::string&)>& column_named,
                         const std::string& group);

}  // namespace tdcone::exporting
