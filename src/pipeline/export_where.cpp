#include "tdcone/pipeline/export_where.hpp"

#include <cmath>
#include <cstdlib>
#include <regex>

#include "tdcone/core/error.hpp"

namespace tdcone::pipeline {

bool RowCondition::holds(std::size_t row) const {
  if (text) return (column->text_values[row] == *text) == (op == "==");
  const long double x = column->number(row);
  if (std::isnan(x)) return false;  // a NaN never passes
  if (op == "<") return x < number;
  if (op == "<=") return x <= number;
  if (op == ">") return x > number;
  if (op == ">=") return x >= number;
  if (op == "==") return x == number;
  return x != number;
}

RowCondition parse_where(const std::string& condition,
                         const std::function<const h5::Column&(const std::string&)>& column_named,
                         const std::string& group) {
  // The value: 'text', "text" (anything but that quote inside) or a number.
  static const std::regex pattern(
      R"re(^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|==|!=|<|>)\s*(?:'([^']*)'|"([^"]*)"|(\S+))\s*$)re");
  std::smatch match;
  if (!std::regex_match(condition, match, pattern))
    throw UsageError(cat("--where: '", condition, "' is not COLUMN OP NUMBER (OP: < <= > >= == !=), e.g. 'tdcone<0.5', "
                         "or, for a text column, COLUMN==TEXT or COLUMN!=TEXT with the text quoted, e.g. "
                         "\"combination=='(6,6)'\""));
  const std::string name = match[1], op = match[2];
  RowCondition result{&column_named(name), op, 0, std::nullopt};
  const bool quoted = match[3].matched || match[4].matched;
  const std::string value = match[3].matched ? match[3] : match[4].matched ? match[4] : match[5];
  const std::string column = cat("--where: column '", name, "' of ", group);
  if (!result.column->numeric()) {
    if (!quoted)
      throw UsageError(cat(column, " holds text: quote the value, e.g. \"", name, op, "'", value, "'\""));
    if (op != "==" && op != "!=")
      throw UsageError(cat(column, " holds text: compare it with == or != ('", condition, "')"));
    result.text = value;
    return result;
  }
  if (quoted)
    throw UsageError(cat(column, " holds numbers: give the value without quotes, e.g. '", name, op, value, "'"));
  char* end = nullptr;
  result.number = std::strtold(value.c_str(), &end);
  if (end != value.c_str() + value.size() || std::isnan(result.number))
    throw UsageError(cat("--where: '", value, "' in '", condition, "' is not a number"));
  return result;
}

}  // namespace tdcone::pipeline
