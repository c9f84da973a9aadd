#pragma once
// What an option value may be, checked in one place for the command line and
// for TOML configs, and said in plain words in messages and --help.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tdcone::cli {

/// What a size measures: a rank's whole budget (--memory), never under a
/// mebibyte, or a buffer (--round-size), any number of bytes.
enum class SizeOf { budget, buffer };
/// Why `text` is not a size ("" when it is): "1500M", "2G", "2GB", "2GiB",
/// "512k", "1.5g" (K, M, G, T: powers of 1024, any case, B or iB optional), or
/// plain bytes; a budget at least 1 MiB of them ("10" is refused: "did you mean 10M or 10G?").
std::string memory_size_problem(const std::string& text, SizeOf what);
/// The bytes of a size (see memory_size_problem). Throws UsageError naming `option`.
std::uint64_t parse_memory_size(const std::string& text, const std::string& option, SizeOf what);

struct ValueRule {
  std::string accepts;  // plain words after "takes" / "is not": "a whole number from 1 to 64"
  std::string brief;    // the same, short, beside the option in --help: "1..64"
  /// True when `text` is accepted; then `text` is rewritten to the form CLI11
  /// converts as meant ("010" -> "10": CLI11 would read octal).
  std::function<bool(std::string& text)> accept;
  /// Optional: why `text` is refused, where "TEXT is not ACCEPTS" would not
  /// help (a size without its unit: "did you mean 10G?").
  std::function<std::string(const std::string& text)> refusal = nullptr;
};

/// Decimal digits only (no sign, no hex), min <= value <= max.
ValueRule whole_number(std::uint64_t min, std::uint64_t max);
/// A 1-based column number; with `zero_for_none` also 0 (no such column).
ValueRule column_number(bool zero_for_none);
/// A finite decimal number, min <= value <= max (either bound may be infinite).
ValueRule real_number(double min, double max);
ValueRule one_of(std::vector<std::string> names);
/// A whole number from 0, or the word "auto".
ValueRule count_or_auto();
/// A size such as 1500M or 2G (see parse_memory_size); empty = automatic.
ValueRule memory_size(SizeOf what);
/// "true" or "false", as CLI11 gives a switch's value.
ValueRule switch_value();

/// "-1 is not a whole number from 0 to 18446744073709551615" (no option name), or the rule's refusal.
std::string not_accepted(const std::string& text, const ValueRule& rule);

}  // namespace tdcone::cli
