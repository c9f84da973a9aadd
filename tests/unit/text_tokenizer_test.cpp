// Tokenizer: docs/spec.md §2 "Tokenization".
#include <gtest/gtest.h>
#include <utf8proc.h>

#include <cstring>
#include <string>
#include <vector>

#include "guarded_page.hpp"
#include "tdcone/text/tokenizer.hpp"

namespace tdcone::text {
namespace {

using Tokens = std::vector<std::string>;

Tokens tokenize(std::string_view text, TokenizerKind kind, bool lowercase) {
  Tokenizer tokenizer({kind, lowercase});
  std::vector<std::string_view> views;
  tokenizer.tokenize(text, views);
  return Tokens(views.begin(), views.end());
}

Tokens punct(std::string_view text, bool lowercase = false) { return tokenize(text, TokenizerKind::punct, lowercase); }
Tokens whitespace(std::string_view text, bool lowercase = false) {
  return tokenize(text, TokenizerKind::whitespace, lowercase);
}

TEST(TextTokenizer, SplitsOnEveryUnicodeWhiteSpace) {
  const char* spaces[] = {"\t",     "\n",     "\v",     "\f",     "\r",     " ",      "\u0085", "\u00A0", "\u1680",
                          "\u2000", "\u2005", "\u200A", "\u2028", "\u2029", "\u202F", "\u205F", "\u3000"};
  for (const char* space : spaces) {
    const std::string text = std::string("a") + space + "b" + space + space + "c";
    EXPECT_EQ(whitespace(text), (Tokens{"a", "b", "c"})) << "space " << testing::PrintToString(space);
    EXPECT_EQ(punct(text), (Tokens{"a", "b", "c"})) << "space " << testing::PrintToString(space);
  }
}

TEST(TextTokenizer, NonWhiteSpaceControlAndZeroWidthCharactersStayInWords) {
  // U+200B ZERO WIDTH SPACE and U+001F are not White_Space.
  EXPECT_EQ(whitespace("a\u200Bb a\x1fz"), (Tokens{"a\u200Bb", "a\x1fz"}));
}

TEST(TextTokenizer, EmptyAndAllSpaceInputGiveNoTokens) {
  EXPECT_TRUE(punct("").empty());
  EXPECT_TRUE(whitespace("").empty());
  EXPECT_TRUE(punct(" \t\u00A0\u3000 ", true).empty());
  EXPECT_TRUE(whitespace(" \t\u00A0\u3000 ", true).empty());
}

TEST(TextTokenizer, ReplacesPreviousTokens) {
  Tokenizer tokenizer({TokenizerKind::punct, true});
  std::vector<std::string_view> tokens{"stale"};
  tokenizer.tokenize("", tokens);
  EXPECT_TRUE(tokens.empty());
}

TEST(TextTokenizer, AsciiPunctuationIsOneTokenPerCharacter) {
  EXPECT_EQ(punct("Hello, world!"), (Tokens{"Hello", ",", "world", "!"}));
  EXPECT_EQ(punct("don't"), (Tokens{"don", "'", "t"}));
  EXPECT_EQ(punct("(a)...[b]"), (Tokens{"(", "a", ")", ".", ".", ".", "[", "b", "]"}));
  EXPECT_EQ(punct("snake_case e-mail a/b #1 50% @x"),
            (Tokens{"snake", "_", "case", "e", "-", "mail", "a", "/", "b", "#", "1", "50", "%", "@", "x"}));
}

TEST(TextTokenizer, AsciiPunctuationTableAgreesWithUnicodeCategories) {
  for (int c = 0x21; c < 0x7F; ++c) {
    const auto category = utf8proc_category(c);
    const bool is_punct = category >= UTF8PROC_CATEGORY_PC && category <= UTF8PROC_CATEGORY_PO;
    const std::string text = std::string("a") + char(c) + "b";
    const Tokens expected = is_punct ? Tokens{"a", std::string(1, char(c)), "b"} : Tokens{text};
    EXPECT_EQ(punct(text), expected) << "character " << char(c);
  }
}

TEST(TextTokenizer, EveryPunctuationCategoryIsSplit) {
  // Pc ‿, Pd — and ‐, Ps « (, Pe » ), Pi “ ‘, Pf ” ’, Po ¿ 、 。 · ؟
  EXPECT_EQ(punct("a\u203Fb"), (Tokens{"a", "\u203F", "b"}));
  EXPECT_EQ(punct("x—y‐z"), (Tokens{"x", "—", "y", "‐", "z"}));
  EXPECT_EQ(punct("«Bonjour»"), (Tokens{"«", "Bonjour", "»"}));
  EXPECT_EQ(punct("“quoted” ‘too’"), (Tokens{"“", "quoted", "”", "‘", "too", "’"}));
  EXPECT_EQ(punct("¿Qué?"), (Tokens{"¿", "Qué", "?"}));
  EXPECT_EQ(punct("東京、大阪。"), (Tokens{"東京", "、", "大阪", "。"}));
  EXPECT_EQ(punct("ما؟"), (Tokens{"ما", "؟"}));
}

TEST(TextTokenizer, WhitespaceKindKeepsPunctuationInWords) {
  EXPECT_EQ(whitespace("Hello, world! «Bonjour» ¿Qué?"), (Tokens{"Hello,", "world!", "«Bonjour»", "¿Qué?"}));
}

TEST(TextTokenizer, SymbolsStayInWords) {
  EXPECT_EQ(punct("a+b $5 x<y=z> a^b `q` a|b ~x"), (Tokens{"a+b", "$5", "x<y=z>", "a^b", "`q`", "a|b", "~x"}));
  EXPECT_EQ(punct("€10 £5 ©2024 °C"), (Tokens{"€10", "£5", "©2024", "°C"}));
  EXPECT_EQ(punct("ok👍 🎉!"), (Tokens{"ok👍", "🎉", "!"}));
}

TEST(TextTokenizer, DigitsStayTogether) {
  EXPECT_EQ(punct("3.14 1,000 42 ٤٢"), (Tokens{"3", ".", "14", "1", ",", "000", "42", "٤٢"}));
}

TEST(TextTokenizer, CombiningMarksStayWithTheirLetter) {
  // "e" + U+0301 COMBINING ACUTE, Devanagari with vowel signs.
  EXPECT_EQ(punct("cafe\u0301, nai\u0308ve"), (Tokens{"cafe\u0301", ",", "nai\u0308ve"}));
  EXPECT_EQ(punct("हिन्दी।"), (Tokens{"हिन्दी", "।"}));
}

TEST(TextTokenizer, LowercaseIsFullCaseFolding) {
  EXPECT_EQ(punct("Straße", true), (Tokens{"strasse"}));
  EXPECT_EQ(punct("ΣΑΣ σας", true), (Tokens{"σασ", "σασ"}));
  EXPECT_EQ(punct("ǅ ǈ", true), (Tokens{"ǆ", "ǉ"}));
  EXPECT_EQ(punct("HELLO World ÀÉÎ ĞÜŞ ДОМ", true), (Tokens{"hello", "world", "àéî", "ğüş", "дом"}));
  EXPECT_EQ(punct("ﬃ ẞ", true), (Tokens{"ffi", "ss"}));
  EXPECT_EQ(punct("ΐ", true), (Tokens{"\u03B9\u0308\u0301"}));  // one code point folds to three
}

TEST(TextTokenizer, LowercaseDoesNotNormalize) {
  // Precomposed é stays precomposed, decomposed e+◌́ stays decomposed.
  EXPECT_EQ(punct("\u00C9 E\u0301", true), (Tokens{"\u00E9", "e\u0301"}));
}

TEST(TextTokenizer, LowercaseOffKeepsTheTextAndPointsIntoIt) {
  const std::string text = "Straße, ΣΑΣ!";
  Tokenizer tokenizer({TokenizerKind::punct, false});
  std::vector<std::string_view> tokens;
  tokenizer.tokenize(text, tokens);
  ASSERT_EQ(Tokens(tokens.begin(), tokens.end()), (Tokens{"Straße", ",", "ΣΑΣ", "!"}));
  for (auto token : tokens) {
    EXPECT_GE(token.data(), text.data());
    EXPECT_LE(token.data() + token.size(), text.data() + text.size());
  }
}

TEST(TextTokenizer, FoldedViewsStayValidWhenTheBufferGrows) {
  Tokenizer tokenizer({TokenizerKind::punct, true});
  std::vector<std::string_view> tokens;
  tokenizer.tokenize("A", tokens);
  std::string long_text;  // many expanding folds: the buffer grows while folding
  for (int i = 0; i < 2000; ++i) long_text += "ΐẞ, ";
  tokenizer.tokenize(long_text, tokens);
  ASSERT_EQ(tokens.size(), 4000u);
  for (std::size_t i = 0; i < tokens.size(); i += 2) {
    EXPECT_EQ(tokens[i], "\u03B9\u0308\u0301ss");
    EXPECT_EQ(tokens[i + 1], ",");
  }
}

TEST(TextTokenizer, BothKindsOnTheSameInput) {
  const std::string text = "  “Don't panic,” said Zaphod — twice!  Straße+ÆON $3.50 ";
  EXPECT_EQ(whitespace(text), (Tokens{"“Don't", "panic,”", "said", "Zaphod", "—", "twice!", "Straße+ÆON", "$3.50"}));
  EXPECT_EQ(whitespace(text, true),
            (Tokens{"“don't", "panic,”", "said", "zaphod", "—", "twice!", "strasse+æon", "$3.50"}));
  EXPECT_EQ(punct(text), (Tokens{"“", "Don", "'", "t", "panic", ",", "”", "said", "Zaphod", "—", "twice", "!",
                                 "Straße+ÆON", "$3", ".", "50"}));
  EXPECT_EQ(punct(text, true), (Tokens{"“", "don", "'", "t", "panic", ",", "”", "said", "zaphod", "—", "twice", "!",
                                       "strasse+æon", "$3", ".", "50"}));
}

// An ASCII sentence's last bytes are read sixteen at once where their page
// allows, else copied: a sentence ending at or near its page's end (the
// bytes after it unreadable) gives the tokens of its copy.
TEST(TextTokenizer, ASentenceAtTheEndOfItsPageGivesTheTokensOfItsCopy) {
  const test_support::GuardedPage page;
  const std::string text = "The cat, Sat on THE mat. 42 times!";
  for (std::size_t length = 0; length <= text.size(); ++length)
    for (std::size_t gap = 0; gap < 18; ++gap) {
      char* at = page.before_end(length + gap);
      std::memcpy(at, text.data(), length);
      std::memset(at + length, 'X', gap);  // bytes after the sentence are not in it
      const std::string_view sentence(at, length);
      const std::string copy(sentence);
      for (const bool lowercase : {false, true}) {
        EXPECT_EQ(punct(sentence, lowercase), punct(copy, lowercase)) << length << " bytes, " << gap << " before the page's end";
        EXPECT_EQ(whitespace(sentence, lowercase), whitespace(copy, lowercase)) << length << " bytes, " << gap;
      }
    }
}

TEST(TextTokenizer, BrokenUtf8DoesNotReadPastTheEnd) {
  // Not a supported input (the caller checks UTF-8), but must stay memory safe.
  const std::string text = "ab \xC3";
  EXPECT_EQ(punct(text.substr(0, 4), true).size(), 2u);
  EXPECT_EQ(punct("\x80x y", true).size(), 2u);
}

}  // namespace
}  // namespace tdcone::text
