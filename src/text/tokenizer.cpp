#include "tdcone/text/tokenizer.hpp"

#include <utf8proc.h>

#include <array>
#include <cstdint>

namespace tdcone::text {

namespace {

enum class CharClass : std::uint8_t { word, space, punct, non_ascii };
using ClassTable = std::array<CharClass, 256>;

// ASCII characters of Unicode categories P*; $+<=>^`|~ are symbols (S*) and stay in words.
constexpr std::string_view kAsciiPunct = "!\"#%&'()*,-./:;?@[\\]_{}";

constexpr ClassTable make_class_table(bool split_punct) {
  ClassTable table{};
  for (int b = 0; b < 256; ++b) table[b] = b < 0x80 ? CharClass::word : CharClass::non_ascii;
  for (int b = 0x09; b <= 0x0D; ++b) table[b] = CharClass::space;
  table[' '] = CharClass::space;
  if (split_punct)
    for (char c : kAsciiPunct) table[static_cast<unsigned char>(c)] = CharClass::punct;
  return table;
}

constexpr ClassTable kWhitespaceTable = make_class_table(false);
constexpr ClassTable kPunctTable = make_class_table(true);

constexpr std::array<char, 128> make_ascii_lower() {
  std::array<char, 128> table{};
  for (int b = 0; b < 128; ++b) table[b] = static_cast<char>(b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
  return table;
}

constexpr std::array<char, 128> kAsciiLower = make_ascii_lower();

// Decodes the code point at `p` (a non-ASCII lead byte), `available` bytes left.
// The caller guarantees valid UTF-8; should a broken sequence slip through, it
// becomes one U+FFFD word character instead of a read past the end.
char32_t decode(const unsigned char* p, std::size_t available, std::size_t& length) {
  char32_t cp;
  if (p[0] >= 0xF0) {
    length = 4;
    cp = p[0] & 0x07;
  } else if (p[0] >= 0xE0) {
    length = 3;
    cp = p[0] & 0x0F;
  } else if (p[0] >= 0xC0) {
    length = 2;
    cp = p[0] & 0x1F;
  } else {
    length = 1;
    return 0xFFFD;
  }
  if (length > available) {
    length = available;
    return 0xFFFD;
  }
  for (std::size_t k = 1; k < length; ++k) cp = (cp << 6) | (p[k] & 0x3F);
  return cp;
}

// Unicode White_Space beyond ASCII.
bool is_non_ascii_space(char32_t cp) {
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

bool is_punctuation(char32_t cp) {
  const auto category = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return category >= UTF8PROC_CATEGORY_PC && category <= UTF8PROC_CATEGORY_PO;
}

CharClass classify(char32_t cp, bool split_punct) {
  if (is_non_ascii_space(cp)) return CharClass::space;
  if (split_punct && is_punctuation(cp)) return CharClass::punct;
  return CharClass::word;
}

void split(std::string_view text, bool split_punct, std::vector<std::string_view>& tokens) {
  const ClassTable& table = split_punct ? kPunctTable : kWhitespaceTable;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t word_start = 0;
  bool in_word = false;
  std::size_t i = 0;
  while (i < n) {
    CharClass c = table[bytes[i]];
    std::size_t length = 1;
    if (c == CharClass::non_ascii) c = classify(decode(bytes + i, n - i, length), split_punct);
    if (c == CharClass::word) {
      if (!in_word) word_start = i;
      in_word = true;
    } else {
      if (in_word) tokens.emplace_back(text.data() + word_start, i - word_start);
      in_word = false;
      if (c == CharClass::punct) tokens.emplace_back(text.data() + i, length);
    }
    i += length;
  }
  if (in_word) tokens.emplace_back(text.data() + word_start, n - word_start);
}

// Appends the full case folding of `text` to `out` (cleared first).
// Folding maps letters to letters and marks, never to spaces or punctuation,
// so splitting the folded text gives the folded tokens of the original.
void case_fold(std::string_view text, std::string& out) {
  out.clear();
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    std::size_t ascii_end = i;
    while (ascii_end < n && bytes[ascii_end] < 0x80) ++ascii_end;
    if (ascii_end > i) {
      const std::size_t old_size = out.size();
      out.resize(old_size + (ascii_end - i));
      char* dst = out.data() + old_size;
      for (std::size_t k = i; k < ascii_end; ++k) *dst++ = kAsciiLower[bytes[k]];
      i = ascii_end;
      if (i == n) break;
    }
    std::size_t length;
    const char32_t cp = decode(bytes + i, n - i, length);
    utf8proc_int32_t folded[8];
    int boundclass = 0;
    const auto count =
        utf8proc_decompose_char(static_cast<utf8proc_int32_t>(cp), folded, 8, UTF8PROC_CASEFOLD, &boundclass);
    if (count <= 0 || count > 8 || (count == 1 && folded[0] == static_cast<utf8proc_int32_t>(cp))) {
      out.append(text.data() + i, length);  // unchanged (or a broken byte: keep it as is)
    } else {
      for (utf8proc_ssize_t k = 0; k < count; ++k) {
        utf8proc_uint8_t encoded[4];
        const auto encoded_length = utf8proc_encode_char(folded[k], encoded);
        out.append(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(encoded_length));
      }
    }
    i += length;
  }
}

}  // namespace

Tokenizer::Tokenizer(TokenizerOptions options) : options_(options) {}

void Tokenizer::tokenize(std::string_view text, std::vector<std::string_view>& tokens) {
  tokens.clear();
  std::string_view source = text;
  if (options_.lowercase) {
    case_fold(text, folded_);  // folded_ is complete before any view into it is taken
    source = folded_;
  }
  split(source, options_.kind == TokenizerKind::punct, tokens);
}

}  // namespace tdcone::text
