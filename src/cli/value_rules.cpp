#include "tdcone/cli/value_rules.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <limits>

#include "tdcone/core/error.hpp"
#include "tdcone/core/number_text.hpp"

namespace tdcone::cli {

namespace {

// Bytes of a unit: "" and "b" bytes; k, m, g, t, alone or with B or iB (any
// case), powers of 1024. 0 for anything else.
double unit_bytes(std::string unit) {
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  if (unit.empty() || unit == "b") return 1;
  if (unit.size() == 3 && unit.ends_with("ib")) unit.resize(1);
  if (unit.size() == 2 && unit.ends_with("b")) unit.resize(1);
  const std::size_t power = std::string("kmgt").find(unit);
  return unit.size() == 1 && power != std::string::npos ? std::pow(1024.0, static_cast<double>(power + 1)) : 0;
}

// The bytes of `text`, or 0 with `problem` said.
double read_size(const std::string& text, SizeOf what, std::string& problem) {
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
  }
  const std::string unit = used < text.size() ? text.substr(used) : "";
  const double scale = unit_bytes(unit);
  if (!(value > 0) || scale == 0 || value * scale > 1e18) {
    problem = cat(text, " is not a size such as 1500M or 2G");
    return 0;
  }
  // No rank runs in less than a mebibyte: a bare budget that small lost its unit.
  if (what == SizeOf::budget && unit.empty() && value < 1024.0 * 1024) {
    problem = cat(text, " is ", text, " bytes; did you mean ", text, "M or ", text, "G?");
    return 0;
  }
  return value * scale;
}

}  // namespace

std::string memory_size_problem(const std::string& text, SizeOf what) {
  std::string problem;
  read_size(text, what, problem);
  return problem;
}

std::uint64_t parse_memory_size(const std::string& text, const std::string& option, SizeOf what) {
  std::string problem;
  const double bytes = read_size(text, what, problem);
  if (!problem.empty()) throw UsageError(cat(option, ": ", problem));
  return static_cast<std::uint64_t>(bytes);
}

ValueRule whole_number(std::uint64_t min, std::uint64_t max) {
  // --help already says UINT: a bound adds to that only if it is not the type's own.
  const bool unbounded = max == std::numeric_limits<std::uint64_t>::max();
  const std::string brief = !unbounded ? cat(min, "..", max) : min > 0 ? cat(">=", min) : "";
  return {cat("a whole number from ", min, " to ", max), brief,
          [min, max](std::string& text) {
            std::uint64_t value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            if (error != std::errc() || stop != end || value < min || value > max) return false;
            text = std::to_string(value);
            return true;
          }};
}

ValueRule count_or_auto() {
  ValueRule rule = whole_number(0, std::numeric_limits<std::uint64_t>::max());
  rule.accepts = "a whole number or auto";
  rule.brief = "N|auto";
  rule.accept = [number = rule.accept](std::string& text) { return text == "auto" || number(text); };
  return rule;
}

ValueRule column_number(bool zero_for_none) {
  ValueRule rule = whole_number(zero_for_none ? 0 : 1, INT_MAX);
  rule.accepts = cat("a column number (1, 2, …, ", INT_MAX, ")", zero_for_none ? " or 0 for none" : "");
  return rule;
}

ValueRule real_number(double min, double max) {
  std::string accepts = "a number", brief;
  if (std::isfinite(min) && std::isfinite(max)) {
    accepts += cat(" from ", shortest_text(min), " to ", shortest_text(max));
    brief = cat(shortest_text(min), "..", shortest_text(max));
  } else if (std::isfinite(min)) {
    accepts += cat(" ≥ ", shortest_text(min));
    brief = cat(">=", shortest_text(min));
  }
  return {accepts, brief, [min, max](std::string& text) {
            double value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            if (error != std::errc() || stop != end || !std::isfinite(value) || value < min || value > max) return false;
            text = shortest_text(value);
            return true;
          }};
}

ValueRule one_of(std::vector<std::string> names) {
  std::string accepts = "one of ", brief = "{";
  for (std::size_t i = 0; i < names.size(); ++i) {
    accepts += (i ? ", " : "") + names[i];
    brief += (i ? "," : "") + names[i];
  }
  return {accepts, brief + "}",
          [names](std::string& text) { return std::find(names.begin(), names.end(), text) != names.end(); }};
}

ValueRule memory_size(SizeOf what) {
  ValueRule rule{"a size such as 1500M or 2G", "SIZE",
                 [what](std::string& text) { return text.empty() || memory_size_problem(text, what).empty(); }};
  rule.refusal = [what](const std::string& text) { return memory_size_problem(text, what); };
  return rule;
}

ValueRule switch_value() {
  return {"true or false", "", [](std::string& text) { return text == "true" || text == "false"; }};
}

std::string not_accepted(const std::string& text, const ValueRule& rule) {
  if (rule.refusal) return rule.refusal(text);
  return cat(text.empty() ? "''" : text, " is not ", rule.accepts);
}

}  // namespace tdcone::cli
