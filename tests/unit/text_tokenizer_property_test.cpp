// Tokenizer against a plain reference (docs/spec.md §2 "Tokenization"): on many
// random strings of ASCII, punctuation, multi-byte letters, spaces, case-folding
// specials and broken bytes, the fast tokenizer gives exactly the reference's
// tokens, for both kinds, with and without lowercasing.
#include <gtest/gtest.h>
#include <utf8proc.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/text/tokenizer.hpp"

namespace tdcone::text {
namespace {

using Tokens = std::vector<std::string>;

struct Char {
  char32_t cp;
  std::string_view bytes;
};

// One character per UTF-8 sequence, as the lead byte announces it. Broken
// input: a stray continuation byte, or a sequence cut by the end of the text,
// is U+FFFD (the bytes stay as they are); continuation bytes are not checked,
// so a short sequence takes the next bytes whatever they are.
std::vector<Char> characters(std::string_view text) {
  std::vector<Char> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    char32_t cp = lead < 0x80 ? lead : lead >= 0xF0 ? lead & 0x07 : lead >= 0xE0 ? lead & 0x0F : lead & 0x1F;
    if (length == 0 || length > text.size() - i) {
      length = length == 0 ? 1 : text.size() - i;
      cp = 0xFFFD;
    } else {
      for (std::size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    out.push_back({cp, text.substr(i, length)});
    i += length;
  }
  return out;
}

// Unicode full case folding, character by character; what it leaves alone
// (or cannot fold) keeps its bytes.
std::string case_fold(std::string_view text) {
  std::string out;
  for (const Char& c : characters(text)) {
    utf8proc_int32_t folded[8];
    int boundclass = 0;
    const auto count = utf8proc_decompose_char(static_cast<utf8proc_int32_t>(c.cp), folded, 8, UTF8PROC_CASEFOLD, &boundclass);
    if (count <= 0 || count > 8 || (count == 1 && folded[0] == static_cast<utf8proc_int32_t>(c.cp))) {
      out += c.bytes;
      continue;
    }
    for (utf8proc_ssize_t k = 0; k < count; ++k) {
      utf8proc_uint8_t encoded[4];
      out.append(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(utf8proc_encode_char(folded[k], encoded)));
    }
  }
  return out;
}

// Unicode White_Space. A broken (overlong) multi-byte form of an ASCII space
// is no space: the tokenizer only takes the ASCII byte itself for one.
bool is_space(const Char& c) {
  const char32_t cp = c.cp;
  const bool white_space = (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
                           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
                           cp == 0x205F || cp == 0x3000;
  return white_space && (cp >= 0x80 || c.bytes.size() == 1);
}

bool is_punctuation(char32_t cp) {
  const auto category = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return category >= UTF8PROC_CATEGORY_PC && category <= UTF8PROC_CATEGORY_PO;
}

Tokens reference(std::string_view input, TokenizerKind kind, bool lowercase) {
  const std::string text = lowercase ? case_fold(input) : std::string(input);
  Tokens tokens;
  std::string word;
  for (const Char& c : characters(text)) {
    if (is_space(c) || (kind == TokenizerKind::punct && is_punctuation(c.cp))) {
      if (!word.empty()) tokens.push_back(word);
      word.clear();
      if (!is_space(c)) tokens.emplace_back(c.bytes);
    } else {
      word += c.bytes;
    }
  }
  if (!word.empty()) tokens.push_back(word);
  return tokens;
}

const std::vector<std::string> kPieces = {
    // ASCII words, capitals, digits, symbols, punctuation, spaces
    "a", "word", "Word", "WORD", "McDonald", "x9", "42", "$", "+", "<=>", "^", "`", "|", "~", ".", ",", "!", "\"", "#",
    "%", "&", "'", "(", ")", "*", "-", "/", ":", ";", "?", "@", "[", "\\", "]", "_", "{", "}", " ", "  ", "\t", "\n",
    "\r", "\v", "\f", "\x1f", "\x01",
    // multi-byte letters, both cases
    "é", "É", "ü", "Ü", "Ж", "ж", "中文", "Ω", "ω", "Σ", "σ", "ς", "ΐ", "ǅ", "Ꭰ", "𝔸", "😀",
    // case-folding specials: to several code points, to ASCII, to other letters
    "ß", "ẞ", "İ", "ı", "ﬁ", "ﬃ", "ŉ", "K", "Å", "ſ", "ᾳ", "ᾼ",
    // Unicode punctuation and symbols, Unicode spaces and non-spaces
    "«", "»", "—", "–", "…", "¿", "¡", "。", "、", "„", "“", "”", "‹", "※", "€", "©", "\u00A0", "\u3000", "\u2003",
    "\u2028", "\u0085", "\u1680", "\u202F", "\u205F", "\u200B", "\u0301",
    // broken UTF-8: stray continuation bytes, cut sequences, bytes that are never UTF-8, overlong forms
    "\x80", "\xBF", "\xC3", "\xE2\x80", "\xF0\x9F", "\xFF", "\xFE", "\xF8", "\xC0\xA0", "\xC1\x81", "\xC0\xAE",
    "\xE0\x80\xA0", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2" "AB", "\xC3" "A"};

std::string random_text(std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> pieces(0, 24), piece(0, kPieces.size() - 1);
  std::string text;
  for (std::size_t n = pieces(rng); n > 0; --n) text += kPieces[piece(rng)];
  return text;
}

TEST(TextTokenizerProperty, GivesTheReferenceTokensOnRandomText) {
  std::mt19937_64 rng(20);
  std::vector<Tokenizer> tokenizers;
  for (auto kind : {TokenizerKind::whitespace, TokenizerKind::punct})
    for (bool lowercase : {false, true}) tokenizers.emplace_back(TokenizerOptions{kind, lowercase});
  std::vector<std::string_view> views;
  for (int round = 0; round < 20000; ++round) {
    const std::string text = random_text(rng);
    for (Tokenizer& tokenizer : tokenizers) {  // reused: no state may leak from one text to the next
      tokenizer.tokenize(text, views);
      const Tokens expected = reference(text, tokenizer.options().kind, tokenizer.options().lowercase);
      ASSERT_EQ(Tokens(views.begin(), views.end()), expected)
          << "text " << testing::PrintToString(text) << ", kind "
          << (tokenizer.options().kind == TokenizerKind::punct ? "punct" : "whitespace") << ", lowercase "
          << tokenizer.options().lowercase;
    }
  }
}

// ASCII text, which the tokenizer splits with masks of 64 bytes: any byte,
// runs of one class, texts of up to several blocks so that words and
// punctuation cross block ends and end the text; then one byte beyond ASCII
// somewhere (that text goes the byte-by-byte way).
std::string random_ascii_text(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> length(0, 200), kind(0, 5), byte(0, 0x7F), run(1, 20);
  const std::string_view classes[] = {"aZ09$|", "ABCXYZ", " \t\n", ".,!?()_{}@", "hello", std::string_view("\x00\x1f\x7f", 3)};
  std::string text;
  for (int target = length(rng); static_cast<int>(text.size()) < target;) {
    const int k = kind(rng);
    if (k == 5) {
      text += static_cast<char>(byte(rng));
      continue;
    }
    const std::string_view chars = classes[k];
    std::uniform_int_distribution<std::size_t> pick(0, chars.size() - 1);
    for (int r = run(rng); r > 0; --r) text += chars[pick(rng)];
  }
  return text;
}

TEST(TextTokenizerProperty, GivesTheReferenceTokensOnRandomAsciiText) {
  std::mt19937_64 rng(64);
  std::vector<Tokenizer> tokenizers;
  for (auto kind : {TokenizerKind::whitespace, TokenizerKind::punct})
    for (bool lowercase : {false, true}) tokenizers.emplace_back(TokenizerOptions{kind, lowercase});
  std::vector<std::string_view> views;
  for (int round = 0; round < 20000; ++round) {
    std::string text = random_ascii_text(rng);
    if (round % 4 == 3 && !text.empty()) text[rng() % text.size()] = static_cast<char>(0xC3);  // "Ã" cut short
    for (Tokenizer& tokenizer : tokenizers) {
      tokenizer.tokenize(text, views);
      const Tokens expected = reference(text, tokenizer.options().kind, tokenizer.options().lowercase);
      ASSERT_EQ(Tokens(views.begin(), views.end()), expected)
          << "text " << testing::PrintToString(text) << ", kind "
          << (tokenizer.options().kind == TokenizerKind::punct ? "punct" : "whitespace") << ", lowercase "
          << tokenizer.options().lowercase;
    }
  }
}

TEST(TextTokenizerProperty, EveryAsciiByteIsClassifiedAsUnicodeSays) {
  std::vector<Tokenizer> tokenizers;
  for (auto kind : {TokenizerKind::whitespace, TokenizerKind::punct})
    for (bool lowercase : {false, true}) tokenizers.emplace_back(TokenizerOptions{kind, lowercase});
  std::vector<std::string_view> views;
  for (int b = 1; b < 0x80; ++b)
    for (Tokenizer& tokenizer : tokenizers) {
      const std::string text = std::string("aB") + static_cast<char>(b) + "Cd" + static_cast<char>(b);
      tokenizer.tokenize(text, views);
      EXPECT_EQ(Tokens(views.begin(), views.end()), reference(text, tokenizer.options().kind, tokenizer.options().lowercase))
          << "byte " << b;
    }
}

}  // namespace
}  // namespace tdcone::text
