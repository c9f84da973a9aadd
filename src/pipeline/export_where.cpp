#include "tdcone/pipeline/export_where.hpp"

#include <cmath>
#include <cstdlib>
#include <regex>

#include "tdcone/core/error.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::pipeline {

namespace {

// COLUMN.BIT OP VALUE: the bit of schema::flag_bits() named BIT, on the flags column.
RowCondition flag_bit(RowCondition result, const std::string& column, const std::string& bit, const std::string& value,
                      const std::string& condition) {
  std::string names;
  for (const schema::FlagBit& flag : schema::flag_bits()) {
    names += cat(names.empty() ? "" : ", ", flag.name);
    if (bit == flag.name) result.bit = flag.bit;
  }
  if (column != schema::pairs::flags.name)
    throw UsageError(cat("--where '", condition, "': only flags has named bits (flags.", bit, ")"));
  if (!result.column->numeric()) throw UsageError(cat("--where '", condition, "': this flags column holds text"));
  if (result.bit == 0) throw UsageError(cat("--where '", condition, "': no flag bit is named '", bit, "' (", names, ")"));
  if ((result.op != "==" && result.op != "!=") || (value != "0" && value != "1"))
    throw UsageError(cat("--where '", condition, "': a bit is 0 or 1: compare it with ==0, ==1, !=0 or !=1, e.g. 'flags.",
                         bit, "==0'"));
  result.number = value == "1" ? 1 : 0;
  return result;
}

}  // namespace

bool RowCondition::holds(std::size_t row) const {
  if (text) return (column->text_values[row] == *text) == (op == "==");
  long double x = column->number(row);
  if (std::isnan(x)) return false;  // a NaN never passes
  if (bit != 0) x = (static_cast<std::uint64_t>(x) & bit) != 0 ? 1 : 0;
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
      R"re(^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\s*(<=|>=|==|!=|<|>)\s*(?:'([^']*)'|"([^"]*)"|(\S+))\s*$)re");
  std::smatch match;
  if (!std::regex_match(condition, match, pattern))
    throw UsageError(cat("--where: '", condition, "' is not COLUMN OP NUMBER (OP: < <= > >= == !=), e.g. 'tdcone<0.5', "
                         "or, for a text column, COLUMN==TEXT or COLUMN!=TEXT with the text quoted, e.g. "
                         "\"combination=='(6,6)'\", or, for a bit of flags, flags.NAME==0 or 1, e.g. 'flags.duplicate==0'"));
  const std::string name = match[1], op = match[3];
  RowCondition result{&column_named(name), op, 0, std::nullopt};
  const bool quoted = match[4].matched || match[5].matched;
  const std::string value = match[4].matched ? match[4] : match[5].matched ? match[5] : match[6];
  if (match[2].matched) return flag_bit(std::move(result), name, match[2], value, condition);
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
