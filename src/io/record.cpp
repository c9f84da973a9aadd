#include "tdcone/io/record.hpp"

#include <simdjson.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tdcone/core/error.hpp"

namespace tdcone::io {

namespace {

bool valid_utf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// A bad field echoed in a message: at most 40 bytes, not cut inside a UTF-8 character.
std::string_view excerpt(std::string_view s) {
  if (s.size() <= 40) return s;
  std::size_t n = 40;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

std::string unparsable_score(std::string_view field) { return cat("unparsable score '", excerpt(field), "'"); }

std::string parse_score(std::string_view field, double& score) {
  return parse_number(field, score) ? std::string() : unparsable_score(field);
}

// The whole of `text` is one value of type T.
template <class T>
bool parse_whole(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && stop == end;
}

// A plain decimal, digits with or without a fraction ("0.6603", the usual
// score), of at most 15 digits: its digits as an integer m and its fraction
// digits k. Then m and 10^k are exact doubles and m / 10^k, one correctly
// rounded division, is the double nearest the decimal, which is what
// from_chars returns (Clinger's fast path), for a fraction of its work.
bool parse_plain_decimal(std::string_view text, double& value) {
  constexpr std::size_t kMaxDigits = 15;  // below 2^53
  static constexpr double kPowers[kMaxDigits + 1] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  std::uint64_t digits = 0;
  std::size_t count = 0, point = text.size();
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned digit = static_cast<unsigned char>(text[i]) - '0';
    if (digit < 10) {
      digits = 10 * digits + digit;
      ++count;
    } else if (text[i] == '.' && point == text.size() && i > 0 && i + 1 < text.size()) {
      point = i;
    } else {
      return false;
    }
  }
  if (count == 0 || count > kMaxDigits) return false;
  const std::size_t fraction = point == text.size() ? 0 : text.size() - point - 1;
  value = static_cast<double>(digits) / kPowers[fraction];
  return true;
}

}  // namespace

bool parse_number(std::string_view text, double& value) {
  text = trim_spaces(text);
  if (parse_plain_decimal(text, value)) return true;
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
    const std::string_view inside = text.substr(1, text.size() - 2);
    const std::size_t comma = inside.find(',');
    std::uint64_t n = 0, m = 0;  // unsigned: from_chars takes no sign
    if (comma == std::string_view::npos || !parse_whole(inside.substr(0, comma), n) ||
        !parse_whole(inside.substr(comma + 1), m) || m == 0 || n > m)
      return false;
    value = static_cast<double>(n) / static_cast<double>(m);
    return true;
  }
  return parse_whole(text, value) && std::isfinite(value);
}

struct RecordParser::Impl {
  std::vector<std::string_view> fields;  // TSV columns of the current line
  simdjson::dom::parser json;
  std::vector<char> padded;  // the current JSON line plus SIMDJSON_PADDING
  char id_text[24];          // an integer JSON id rendered as text
  std::vector<std::string_view> labels;         // the current line's label values
  std::vector<std::array<char, 32>> label_text;  // JSON numbers and booleans rendered as text
  std::string label_problem;
  std::vector<bool> have_label;
};

RecordParser::RecordParser(FieldSpec spec) : spec_(std::move(spec)), impl_(std::make_unique<Impl>()) {
  if (spec_.format == Format::tsv && (spec_.src_col < 1 || spec_.tgt_col < 1 || spec_.score_col < 0 || spec_.id_col < 0 ||
                                      std::ranges::any_of(spec_.label_cols, [](int col) { return col < 1; })))
    throw UsageError("column numbers are 1-based");
  impl_->labels.resize(spec_.label_count());
  impl_->label_text.resize(spec_.label_count());
}

RecordParser::~RecordParser() = default;

namespace {

// The label columns of a line already split into `fields`; returns the problem, if any.
std::string tsv_labels(const FieldSpec& spec, const std::vector<std::string_view>& fields,
                       std::vector<std::string_view>& labels) {
  for (std::size_t i = 0; i < spec.label_cols.size(); ++i) {
    const int col = spec.label_cols[i];
    if (col > static_cast<int>(fields.size())) return cat("missing label column ", col);
    labels[i] = trim_spaces(fields[col - 1]);
    if (labels[i].empty()) return cat("empty label column ", col);
    if (!valid_utf8(labels[i])) return cat("invalid UTF-8 in label column ", col);
  }
  return {};
}

// The first `needed` tab-separated fields of `line` (fewer if it has fewer),
// in the same pass as the check that the whole line is ASCII (then valid
// UTF-8 too), sixteen bytes a step where SSE2 exists (all x86-64). Returns
// whether it is ASCII.
bool split_tabs(std::string_view line, std::size_t needed, std::vector<std::string_view>& fields) {
  fields.clear();
  const char* text = line.data();
  const std::size_t n = line.size();
  std::size_t start = 0, i = 0;
  unsigned high = 0;  // the bytes' high bits, or-ed
  const auto tab_at = [&](std::size_t at) {
    if (fields.size() == needed) return;
    fields.emplace_back(text + start, at - start);
    start = at + 1;
  };
#ifdef __SSE2__
  const __m128i tab = _mm_set1_epi8('\t');
  const auto step = [&](std::size_t at, unsigned unseen) {  // the 16 bytes at `at`, those of `unseen` not seen before
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + at));
    high |= static_cast<unsigned>(_mm_movemask_epi8(bytes)) & unseen;
    for (unsigned tabs = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, tab))) & unseen; tabs != 0;
         tabs &= tabs - 1)
      tab_at(at + static_cast<std::size_t>(std::countr_zero(tabs)));
  };
  for (; i + 16 <= n; i += 16) step(i, 0xFFFF);
  if (n >= 16 && i < n) {  // the last 16 bytes, overlapping those seen
    step(n - 16, (0xFFFFu << (16 - (n - i))) & 0xFFFF);
    i = n;
  }
#endif
  for (; i < n; ++i) {
    high |= static_cast<unsigned char>(text[i]) & 0x80u;
    if (text[i] == '\t') tab_at(i);
  }
  if (fields.size() < needed) fields.emplace_back(text + start, n - start);
  return high == 0;
}

std::string parse_tsv(const FieldSpec& spec, std::vector<std::string_view>& fields, std::string_view line, Record& out,
                      std::vector<std::string_view>& labels, std::string& label_problem) {
  // Split only as far as the last column we need.
  int needed = std::max({spec.src_col, spec.tgt_col, spec.score_col, spec.id_col});
  for (int col : spec.label_cols) needed = std::max(needed, col);
  const bool ascii = split_tabs(line, static_cast<std::size_t>(needed), fields);
  const int have = static_cast<int>(fields.size());
  int missing = 0;
  for (int col : {spec.src_col, spec.tgt_col, spec.score_col, spec.id_col})
    if (col > have && (missing == 0 || col < missing)) missing = col;
  if (missing > 0) return cat("missing column ", missing);

  out.src = fields[spec.src_col - 1];
  out.tgt = fields[spec.tgt_col - 1];
  if (spec.id_col > 0) out.id = fields[spec.id_col - 1];
  // One check of the whole line (valid nearly always: then so is every
  // field) in place of three; the fields decide when it is not.
  if (!ascii && !valid_utf8(line) && (!valid_utf8(out.src) || !valid_utf8(out.tgt) || !valid_utf8(out.id))) return "invalid UTF-8";
  if (spec.score_col > 0) {
    std::string reason = parse_score(fields[spec.score_col - 1], out.score);
    if (!reason.empty()) return reason;
  }
  label_problem = tsv_labels(spec, fields, labels);
  return {};
}

// Why simdjson found the line not to be valid JSON.
std::string json_error(simdjson::error_code error) {
  switch (error) {
    case simdjson::UTF8_ERROR:
      return "invalid UTF-8";
    case simdjson::NUMBER_ERROR:
      return "invalid JSON: a malformed or out-of-range number";
    case simdjson::STRING_ERROR:
    case simdjson::UNCLOSED_STRING:
    case simdjson::UNESCAPED_CHARS:
      return "invalid JSON: a malformed string";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
      return "invalid JSON: a malformed true, false or null";
    default:
      return "invalid JSON";
  }
}

std::string json_string(simdjson::dom::element value, const std::string& name, std::string_view& out) {
  if (value.get_string().get(out)) return cat("field '", name, "' is not a string");
  return {};
}

// A number (finite: the parser refuses others), or a string holding one.
std::string json_score(simdjson::dom::element value, const std::string& name, double& score) {
  std::string_view text;
  if (!value.get_string().get(text)) return parse_score(text, score);
  if (value.get_double().get(score)) return cat("field '", name, "' is not a number");
  return {};
}

// A string id as is, an integer id rendered into `text`.
std::string json_id(simdjson::dom::element value, const std::string& name, char (&text)[24], std::string_view& id) {
  if (value.is_string()) return json_string(value, name, id);
  std::int64_t signed_id;
  std::uint64_t unsigned_id;
  std::to_chars_result written;
  if (!value.get_int64().get(signed_id))
    written = std::to_chars(std::begin(text), std::end(text), signed_id);
  else if (!value.get_uint64().get(unsigned_id))
    written = std::to_chars(std::begin(text), std::end(text), unsigned_id);
  else
    return cat("field '", name, "' is not a string or an integer");
  id = std::string_view(text, written.ptr - text);
  return {};
}

// A label: a non-empty string as is; a number or a boolean as its text.
std::string json_label(simdjson::dom::element value, const std::string& name, std::array<char, 32>& text,
                       std::string_view& label) {
  const auto rendered = [&](auto number) {
    label = std::string_view(text.data(), std::to_chars(text.data(), text.data() + text.size(), number).ptr - text.data());
  };
  std::int64_t signed_value;
  std::uint64_t unsigned_value;
  double real_value;
  bool bool_value;
  if (!value.get_string().get(label)) {
    label = trim_spaces(label);
    if (label.empty()) return cat("empty label field '", name, "'");
  } else if (!value.get_int64().get(signed_value)) {
    rendered(signed_value);
  } else if (!value.get_uint64().get(unsigned_value)) {
    rendered(unsigned_value);
  } else if (!value.get_double().get(real_value)) {
    rendered(real_value);
  } else if (!value.get_bool().get(bool_value)) {
    label = bool_value ? "true" : "false";
  } else {
    return cat("label field '", name, "' is ", value.is_null() ? "null" : "not a string, number or boolean");
  }
  return {};
}

}  // namespace

std::string RecordParser::parse(std::string_view line, Record& out) {
  out = Record{};
  std::vector<std::string_view>& labels = impl_->labels;
  std::string& label_problem = impl_->label_problem;
  label_problem.clear();
  std::string reason = parse_line(line, out);
  // A blank line is bad as any line without the fields, but says why plainly.
  if (!reason.empty() && line.find_first_not_of(" \t\r\v\f") == std::string_view::npos) reason = "empty line";
  if (reason.empty() && !labels.empty()) {
    out.label_problem = label_problem;
    if (label_problem.empty()) out.labels = labels;
  }
  return reason;
}

std::string RecordParser::parse_line(std::string_view line, Record& out) {
  std::vector<std::string_view>& labels = impl_->labels;
  if (spec_.format == Format::tsv) return parse_tsv(spec_, impl_->fields, line, out, labels, impl_->label_problem);
  if (spec_.format == Format::line) {
    out.src = out.tgt = line;
    return valid_utf8(line) ? std::string() : std::string("invalid UTF-8");
  }

  // simdjson reads up to SIMDJSON_PADDING bytes past the text; the line's own
  // buffer gives no such guarantee, so copy it into ours.
  std::vector<char>& padded = impl_->padded;
  if (padded.size() < line.size() + simdjson::SIMDJSON_PADDING) padded.resize(line.size() + simdjson::SIMDJSON_PADDING);
  std::memcpy(padded.data(), line.data(), line.size());

  // The DOM parser checks all of the line (On-Demand checks only the parts
  // read, so junk after the fields or inside other fields would pass). The
  // strings it unescapes live in it until the next parse(): out's views stay
  // valid that long.
  simdjson::dom::element doc;
  if (const auto error = impl_->json.parse(padded.data(), line.size(), false).get(doc)) return json_error(error);
  simdjson::dom::object object;
  if (doc.get_object().get(object)) return "not a JSON object";

  bool have_src = false, have_tgt = false, have_score = false, have_id = false;
  std::vector<bool>& have_label = impl_->have_label;
  have_label.assign(labels.size(), false);
  for (const auto [key, value] : object) {
    std::string reason;
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (key == spec_.label_fields[i] && impl_->label_problem.empty()) {
        have_label[i] = true;
        impl_->label_problem = json_label(value, spec_.label_fields[i], impl_->label_text[i], labels[i]);
      }
    const bool is_src = key == spec_.src_field, is_tgt = key == spec_.tgt_field;
    if (is_src || is_tgt) {  // one field may be both sides (one-sided lines in selection)
      std::string_view text;
      reason = json_string(value, is_src ? spec_.src_field : spec_.tgt_field, text);
      if (is_src) out.src = text, have_src = true;
      if (is_tgt) out.tgt = text, have_tgt = true;
    } else if (spec_.has_score() && key == spec_.score_field) {
      reason = json_score(value, spec_.score_field, out.score);
      have_score = true;
    } else if (spec_.has_id() && key == spec_.id_field) {
      reason = json_id(value, spec_.id_field, impl_->id_text, out.id);
      have_id = true;
    }
    if (!reason.empty()) return reason;
  }

  if (!have_src) return cat("missing field '", spec_.src_field, "'");
  if (!have_tgt) return cat("missing field '", spec_.tgt_field, "'");
  if (spec_.has_score() && !have_score) return cat("missing field '", spec_.score_field, "'");
  if (spec_.has_id() && !have_id) return cat("missing field '", spec_.id_field, "'");
  for (std::size_t i = 0; i < labels.size() && impl_->label_problem.empty(); ++i)
    if (!have_label[i]) impl_->label_problem = cat("missing label field '", spec_.label_fields[i], "'");
  return {};
}

}  // namespace tdcone::io
