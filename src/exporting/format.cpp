#include "tdcone/exporting/format.hpp"

#include <charconv>
#include <cmath>

namespace tdcone::exporting {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// Length of the valid UTF-8 sequence at text[i], or 0 if the byte there does not start one.
std::size_t valid_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // no overlong forms
    if (lead == 0xF4) high = 0x8F;  // nothing over U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

/// Calls on_ascii(c) for every ASCII byte, appends other valid sequences as
/// they are and U+FFFD for every invalid byte.
template <class OnAscii>
void each_character(std::string& out, std::string_view text, OnAscii on_ascii) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = valid_sequence(text, i);
    if (length == 1) {
      on_ascii(text[i]);
    } else if (length == 0) {
      out += kReplacement;
    } else {
      out.append(text, i, length);
    }
    i += length == 0 ? 1 : length;
  }
}

}  // namespace

void append_valid_utf8(std::string& out, std::string_view text) {
  each_character(out, text, [&](char c) { out += c; });
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  each_character(out, text, [&](char c) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  });
  out += '"';
}

void append_tsv_cell(std::string& out, std::string_view text) {
  each_character(out, text, [&](char c) { out += (c == '\t' || c == '\n' || c == '\r') ? ' ' : c; });
}

void append_number(std::string& out, double value, bool json) {
  if (!std::isfinite(value)) {
    out += json ? "null" : std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
    return;
  }
  char text[40];
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

void append_number(std::string& out, std::uint64_t value) {
  char text[24];
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

void append_number(std::string& out, std::int64_t value) {
  char text[24];
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

}  // namespace tdcone::exporting
