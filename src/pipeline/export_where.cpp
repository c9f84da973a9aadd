#include "tdcone/pipeline/export_where.hpp"

#include <cmath>
#include <cstdlib>
#include <regex>

#include "tdcone/core/error.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/pair_markers.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::pipeline {

namespace {

// The named bits of a bit column: flags (schema/pair_flags.hpp) and markers
// (schema/pair_markers.hpp); none for any other column.
std::vector<std::pair<std::string, std::uint64_t>> named_bits(const std::string& column) {
  std::vector<std::pair<std::string, std::uint64_t>> bits;
  if (column == schema::pairs::flags.name)
    for (const schema::FlagBit& flag : schema::flag_bits()) bits.emplace_back(flag.name, flag.bit);
  if (column == schema::pairs::markers.name)
    for (const schema::MarkerBit& marker : schema::marker_bits()) bits.emplace_back(marker.name, marker.bit);
  return bits;
}

// COLUMN.BIT OP VALUE: the bit named BIT of a bit column (flags.duplicate, markers.tgt_url).
RowCondition named_bit(RowCondition result, const std::string& column, const std::string& bit, const std::string& value,
                       const std::string& condition) {
  const auto bits = named_bits(column);
  if (bits.empty())
    throw UsageError(cat("--where '", condition, "': only flags and markers have named bits (", column, ".", bit, ")"));
  if (!result.column->numeric()) throw UsageError(cat("--where '", condition, "': this ", column, " column holds text"));
  std::string names;
  for (const auto& [name, value_of_bit] : bits) {
    names += cat(names.empty() ? "" : ", ", name);
    if (bit == name) result.bit = value_of_bit;
  }
  if (result.bit == 0)
    throw UsageError(cat("--where '", condition, "': no ", column, " bit is named '", bit, "' (", names, ")"));
  if ((result.op != "==" && result.op != "!=") || (value != "0" && value != "1"))
    throw UsageError(cat("--where '", condition, "': a bit is 0 or 1: compare it with ==0, ==1, !=0 or !=1, e.g. '",
                         column, ".", bit, "==0'"));
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
                         "\"combination=='(6,6)'\", or, for a bit of flags or markers, COLUMN.NAME==0 or 1, e.g. 'flags.duplicate==0'"));
  const std::string name = match[1], op = match[3];
  RowCondition result{&column_named(name), op, 0, std::nullopt};
  const bool quoted = match[4].matched || match[5].matched;
  const std::string value = match[4].matched ? match[4] : match[5].matched ? match[5] : match[6];
  if (match[2].matched) return named_bit(std::move(result), name, match[2], value, condition);
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
