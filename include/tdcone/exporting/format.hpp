#pragma once
// How `tdcone export` writes values: JSON strings and numbers, TSV cells.
#include <cstdint>
#include <string>
#include <string_view>

namespace tdcone::exporting {

/// Appends `text` with every invalid UTF-8 byte (a stray continuation byte,
/// a truncated or overlong sequence, a surrogate, a code point over U+10FFFF)
/// replaced by U+FFFD, so the output is valid UTF-8.
void append_valid_utf8(std::string& out, std::string_view text);

/// Appends `text` as a JSON string: quoted, `"` `\` and control characters
/// escaped, invalid UTF-8 replaced by U+FFFD.
void append_json_string(std::string& out, std::string_view text);

/// Appends `text` as a TSV cell: tab, line feed and carriage return become
/// spaces (TSV has no quoting), invalid UTF-8 becomes U+FFFD.
void append_tsv_cell(std::string& out, std::string_view text);

/// A double as the shortest text that reads back as the same value
/// ("0.1", "1e-05"); NaN and infinities: `json` ? "null" : "nan" / "inf" / "-inf".
void append_number(std::string& out, double value, bool json);
void append_number(std::string& out, std::uint64_t value);
void append_number(std::string& out, std::int64_t value);

}  // namespace tdcone::exporting
