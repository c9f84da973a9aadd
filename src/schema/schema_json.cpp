#include "tdcone/schema/schema_json.hpp"

#include <cstdio>
#include <vector>

#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/pair_markers.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::schema {

namespace {

std::string quoted(const char* text) {
  std::string out = "\"";
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c == '"' || *c == '\\') {
      out += '\\';
      out += *c;
    } else if (static_cast<unsigned char>(*c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(*c));
      out += escape;
    } else {
      out += *c;
    }
  }
  return out + "\"";
}

/// One column or attribute: {"name": ..., "type": ..., "presence": ..., "about": ...}.
template <class Entry>
std::string entry(const Entry& e) {
  return "{\"name\": " + quoted(e.name) + ", \"type\": " + quoted(type_name(e.type)) +
         ", \"presence\": " + quoted(presence_name(e.presence)) + ", \"about\": " + quoted(e.about) + "}";
}

/// A JSON array of `entries`, one a line at `indent`.
template <class Entry>
std::string list(const std::vector<const Entry*>& entries, const std::string& indent) {
  if (entries.empty()) return "[]";
  std::string out = "[\n";
  for (std::size_t i = 0; i < entries.size(); ++i)
    out += indent + "  " + entry(*entries[i]) + (i + 1 < entries.size() ? ",\n" : "\n");
  return out + indent + "]";
}

/// A JSON array of flag or marker bits, one a line.
template <class Bit>
std::string bit_list(const std::vector<Bit>& bits) {
  std::string out = "[\n";
  for (std::size_t b = 0; b < bits.size(); ++b)
    out += "    {\"name\": " + quoted(bits[b].name) + ", \"value\": " + std::to_string(bits[b].bit) +
           ", \"about\": " + quoted(bits[b].about) + "}" + (b + 1 < bits.size() ? ",\n" : "\n");
  return out + "  ]";
}

}  // namespace

std::string json() {
  std::string out = "{\n  \"root\": {\"attributes\": " + list(root_attributes(), "  ") + "},\n  \"groups\": [\n";
  const auto& all = tables();
  for (std::size_t t = 0; t < all.size(); ++t) {
    const Table& table = all[t];
    out += "    {\"group\": " + quoted(table.group) + ", \"writer\": " + quoted(table.writer) +
           ", \"checked\": " + (table.checked ? "true" : "false") + ",\n";
    out += "     \"columns\": " + list(table.columns, "     ") + ",\n";
    out += "     \"attributes\": " + list(table.attributes, "     ") + "}" + (t + 1 < all.size() ? ",\n" : "\n");
  }
  out += "  ],\n  \"flags\": " + bit_list(flag_bits()) + ",\n  \"markers\": " + bit_list(marker_bits());
  return out + "\n}\n";
}

}  // namespace tdcone::schema
