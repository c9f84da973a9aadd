#include "tdcone/exporting/where.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "tdcone/core/error.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/pair_markers.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::exporting {

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
    throw UsageError(cat(Option::where, " '", condition, "': only flags and markers have named bits (", column, ".", bit, ")"));
  if (!result.column->numeric())
    throw UsageError(cat(Option::where, " '", condition, "': this ", column, " column holds text"));
  std::string names;
  for (const auto& [name, value_of_bit] : bits) {
    names += cat(names.empty() ? "" : ", ", name);
    if (bit == name) result.bit = value_of_bit;
  }
  if (result.bit == 0)
    throw UsageError(cat(Option::where, " '", condition, "': no ", column, " bit is named '", bit, "' (", names, ")"));
  if ((result.op != "==" && result.op != "!=") || (value != "0" && value != "1"))
    throw UsageError(cat(Option::where, " '", condition, "': a bit is 0 or 1: compare it with ==0, ==1, !=0 or !=1, e.g. '",
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

WhereParts split_where(const std::string& condition) {
  if (condition.size() > kMaxWhereLength)
    throw UsageError(cat(Option::where, ": a condition has at most ", kMaxWhereLength, " characters; this one has ",
                         condition.size(), " ('", condition.substr(0, 40), "...'): give a shorter condition, or "
                         "several ", Option::where, ", which must all hold"));
  const auto shape_refused = [&] {
    return UsageError(cat(Option::where, ": '", condition, "' is not COLUMN OP NUMBER (OP: < <= > >= == !=), e.g. "
                          "'tdcone<0.5', or, for a text column, COLUMN==TEXT or COLUMN!=TEXT with the text quoted, "
                          "e.g. \"combination=='(6,6)'\", or, for a bit of flags or markers, COLUMN.NAME==0 or 1, "
                          "e.g. 'flags.duplicate==0'"));
  };
  // The spaces of the C locale, as the regular expression before this scanner took them.
  const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  const auto name_start = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  const std::string_view text(condition);
  std::size_t at = 0;
  const auto skip_spaces = [&] {
    while (at < text.size() && space(text[at])) ++at;
  };
  const auto name = [&] {
    if (at == text.size() || !name_start(text[at])) throw shape_refused();
    const std::size_t from = at;
    while (at < text.size() && (name_start(text[at]) || (text[at] >= '0' && text[at] <= '9'))) ++at;
    return std::string(text.substr(from, at - from));
  };
  WhereParts parts;
  skip_spaces();
  parts.column = name();
  if (at < text.size() && text[at] == '.') ++at, parts.bit = name();
  skip_spaces();
  for (const std::string_view op : {"<=", ">=", "==", "!=", "<", ">"})  // the two-character ones first
    if (text.substr(at, op.size()) == op) {
      parts.op = op;
      break;
    }
  if (parts.op.empty()) throw shape_refused();
  at += parts.op.size();
  skip_spaces();
  std::size_t end = text.size();
  while (end > at && space(text[end - 1])) --end;
  const std::string_view value = text.substr(at, end - at);
  // 'text' or "text": no quote of its kind inside; anything else is one word.
  const char quote = value.empty() ? '\0' : value.front();
  if ((quote == '\'' || quote == '"') && value.size() >= 2 && value.find(quote, 1) == value.size() - 1) {
    parts.quoted = true;
    parts.value = value.substr(1, value.size() - 2);
  } else if (!value.empty() && std::none_of(value.begin(), value.end(), space)) {
    parts.value = value;
  } else {
    throw shape_refused();
  }
  return parts;
}

RowCondition parse_where(const std::string& condition,
                         const std::function<const hdf5::Column&(const std::string&)>& column_named,
                         const std::string& group) {
  const WhereParts parts = split_where(condition);
  const std::string& name = parts.column;
  const std::string& op = parts.op;
  const std::string& value = parts.value;
  const bool quoted = parts.quoted;
  RowCondition result{&column_named(name), op, 0, std::nullopt};
  if (!parts.bit.empty()) return named_bit(std::move(result), name, parts.bit, value, condition);
  const std::string column = cat(Option::where, ": column '", name, "' of ", group);
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
    throw UsageError(cat(Option::where, ": '", value, "' in '", condition, "' is not a number"));
  return result;
}

}  // namespace tdcone::exporting
