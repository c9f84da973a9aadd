#include "tdcone/text/tokenizer.hpp"

#include <utf8proc.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __x86_64__
#include <tmmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "page_loads.hpp"

namespace tdcone::text {

namespace {

enum class CharClass : std::uint8_t { word, upper, space, punct, non_ascii };  // upper: an ASCII capital
using ClassTable = std::array<CharClass, 256>;

// ASCII characters of Unicode categories P*; $+<=>^`|~ are symbols (S*) and stay in words.
constexpr std::string_view kAsciiPunct = "!\"#%&'()*,-./:;?@[\\]_{}";

constexpr ClassTable make_class_table(bool split_punct) {
  ClassTable table{};
  for (int b = 0; b < 256; ++b) table[b] = b < 0x80 ? CharClass::word : CharClass::non_ascii;
  for (int b = 'A'; b <= 'Z'; ++b) table[b] = CharClass::upper;
  for (int b = 0x09; b <= 0x0D; ++b) table[b] = CharClass::space;
  table[' '] = CharClass::space;
  if (split_punct)
    for (char c : kAsciiPunct) table[static_cast<unsigned char>(c)] = CharClass::punct;
  return table;
}

constexpr ClassTable kWhitespaceTable = make_class_table(false);
constexpr ClassTable kPunctTable = make_class_table(true);

constexpr std::array<unsigned char, 128> make_ascii_lower() {
  std::array<unsigned char, 128> table{};
  for (int b = 0; b < 128; ++b) table[b] = static_cast<unsigned char>(b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
  return table;
}

constexpr std::array<unsigned char, 128> kAsciiLower = make_ascii_lower();

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

// The full case folding of code point `cp` into `folded` (a broken byte's
// U+FFFD folds to itself); returns how many code points, 0 when folding leaves
// it unchanged.
int fold(char32_t cp, utf8proc_int32_t (&folded)[8]) {
  int boundclass = 0;
  const auto count =
      utf8proc_decompose_char(static_cast<utf8proc_int32_t>(cp), folded, 8, UTF8PROC_CASEFOLD, &boundclass);
  if (count <= 0 || count > 8 || (count == 1 && folded[0] == static_cast<utf8proc_int32_t>(cp))) return 0;
  return static_cast<int>(count);
}

// One pass over a sentence: a byte-class table splits ASCII and lowercases it,
// utf8proc sees only non-ASCII characters. Tokens are views into the text;
// a word that folding changes is built in `folded` instead, and only that word:
// an all-lowercase sentence is never copied.
//
// The tokens are those of splitting the case-folded text (folding maps letters
// to letters and marks, each folded code point is classified as the split of
// the folded text would), which is how they are defined.
template <bool kSplitPunct, bool kLowercase>
class Scanner {
 public:
  Scanner(std::string_view text, std::vector<std::string_view>& tokens, std::string& folded,
          std::vector<std::pair<std::size_t, std::size_t>>& moved)
      : text_(text), tokens_(tokens), folded_(folded), moved_(moved) {}

  void run() {
    const ClassTable& table = kSplitPunct ? kPunctTable : kWhitespaceTable;
    const auto* bytes = reinterpret_cast<const unsigned char*>(text_.data());
    const std::size_t n = text_.size();
    std::size_t i = 0;
    while (i < n) {
      switch (table[bytes[i]]) {
        case CharClass::word:
        case CharClass::upper: {  // a run of ASCII word bytes, lowercased at once
          std::size_t end = i + 1;
          CharClass seen = table[bytes[i]];
          end = skip_letters_and_digits(bytes, end, n, seen);
          for (CharClass c; end < n && (c = table[bytes[end]]) <= CharClass::upper; ++end) seen = std::max(seen, c);
          if (kLowercase && seen == CharClass::upper)
            add_lowered_run(i, end);
          else
            add_word_bytes(i, end - i);
          i = end;
          continue;
        }
        case CharClass::space:
          end_word(i);
          break;
        case CharClass::punct:
          end_word(i);
          tokens_.emplace_back(text_.data() + i, 1);
          break;
        case CharClass::non_ascii:
          i += non_ascii(bytes + i, n - i, i);
          continue;
      }
      ++i;
    }
    end_word(n);
    for (const auto& [index, offset] : moved_) tokens_[index] = {folded_.data() + offset, tokens_[index].size()};
  }

 private:
  // Past the ASCII letters and digits from `at` (the bulk of a word), sixteen
  // bytes a step where SSE2 exists; `seen` becomes upper if a capital is among them.
  static std::size_t skip_letters_and_digits(const unsigned char* bytes, std::size_t at, std::size_t n, CharClass& seen) {
#ifdef __SSE2__
    // Signed compares: bytes from 0x80 are negative, never in a range.
    const auto in_range = [](__m128i v, char low, char high) {
      return _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(static_cast<char>(low - 1))),
                           _mm_cmplt_epi8(v, _mm_set1_epi8(static_cast<char>(high + 1))));
    };
    while (n - at >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at));
      const auto plain = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(in_range(v, 'a', 'z'), in_range(v, '0', '9'))));
      const auto capitals = static_cast<unsigned>(_mm_movemask_epi8(in_range(v, 'A', 'Z')));
      const unsigned stops = ~(plain | capitals) & 0xFFFFu;
      const int run = stops ? std::countr_zero(stops) : 16;
      if (capitals & ((1u << run) - 1)) seen = CharClass::upper;
      at += static_cast<std::size_t>(run);
      if (stops) break;
    }
#else
    (void)bytes, (void)n, (void)seen;
#endif
    return at;
  }

  // The non-ASCII character at `p` (text offset `at`); returns its length in the text.
  std::size_t non_ascii(const unsigned char* p, std::size_t available, std::size_t at) {
    std::size_t length;
    const char32_t cp = decode(p, available, length);
    utf8proc_int32_t folded[8];
    const int count = kLowercase ? fold(cp, folded) : 0;
    if (count == 0) {
      switch (classify(cp, kSplitPunct)) {
        case CharClass::word:
          add_word_bytes(at, length);
          break;
        case CharClass::punct:
          end_word(at);
          tokens_.emplace_back(text_.data() + at, length);
          break;
        default:
          end_word(at);
      }
      return length;
    }
    for (int k = 0; k < count; ++k) {
      utf8proc_uint8_t encoded[4];
      const auto size = static_cast<std::size_t>(utf8proc_encode_char(folded[k], encoded));
      const char* chars = reinterpret_cast<const char*>(encoded);
      switch (classify_folded(static_cast<char32_t>(folded[k]))) {
        case CharClass::word:
          add_folded_word_bytes(at, chars, size);
          break;
        case CharClass::punct:
          end_word(at);
          moved_.emplace_back(tokens_.size(), folded_.size());
          tokens_.emplace_back(text_.data(), size);
          folded_.append(chars, size);
          break;
        default:
          end_word(at);
      }
    }
    return length;
  }

  // A code point of the folded text, classified as splitting that text would:
  // the table for ASCII (an overlong form decoded by classify() may differ).
  static CharClass classify_folded(char32_t cp) {
    if (cp >= 0x80) return classify(cp, kSplitPunct);
    const CharClass c = (kSplitPunct ? kPunctTable : kWhitespaceTable)[cp];
    return c == CharClass::upper ? CharClass::word : c;
  }

  void start_word(std::size_t at) {
    in_word_ = true;
    in_folded_ = false;
    word_start_ = at;
  }

  // Text bytes [at, at + length) that folding leaves as they are, in a word.
  [[gnu::always_inline]] void add_word_bytes(std::size_t at, std::size_t length) {
    if (!in_word_)
      start_word(at);
    else if (in_folded_)
      folded_.append(text_.data() + at, length);
  }

  // Text bytes [begin, end), ASCII with capitals, in a word: lowercased into folded_.
  void add_lowered_run(std::size_t begin, std::size_t end) {
    move_word_to_folded(begin);
    const std::size_t offset = folded_.size();
    folded_.resize(offset + (end - begin));
    char* out = folded_.data() + offset;
    for (std::size_t k = begin; k < end; ++k) *out++ = static_cast<char>(kAsciiLower[static_cast<unsigned char>(text_[k])]);
  }

  // Folded bytes standing for the text at `at`, in a word.
  void add_folded_word_bytes(std::size_t at, const char* chars, std::size_t length) {
    move_word_to_folded(at);
    folded_.append(chars, length);
  }

  // The word in progress (or a new one) goes on in folded_, from text offset `at`.
  void move_word_to_folded(std::size_t at) {
    if (!in_word_) {
      in_word_ = true;
      in_folded_ = true;
      word_start_ = folded_.size();
    } else if (!in_folded_) {
      in_folded_ = true;
      const std::size_t offset = folded_.size();
      folded_.append(text_.data() + word_start_, at - word_start_);
      word_start_ = offset;
    }
  }

  // Ends the word in progress, if any, before text offset `at`.
  [[gnu::always_inline]] void end_word(std::size_t at) {
    if (!in_word_) return;
    in_word_ = false;
    if (!in_folded_) {
      tokens_.emplace_back(text_.data() + word_start_, at - word_start_);
      return;
    }
    // folded_ may still grow: the view is made at the end.
    moved_.emplace_back(tokens_.size(), word_start_);
    tokens_.emplace_back(text_.data(), folded_.size() - word_start_);
  }

  std::string_view text_;
  std::vector<std::string_view>& tokens_;
  std::string& folded_;
  std::vector<std::pair<std::size_t, std::size_t>>& moved_;  // (token, offset in folded_) of folded tokens
  bool in_word_ = false;
  bool in_folded_ = false;    // the word in progress is in folded_
  std::size_t word_start_ = 0;  // in the text, or in folded_
};

#ifdef __x86_64__
// The classes of the ASCII bytes as two 16-byte tables for pshufb: byte
// (high nibble h, low nibble l) has the class bits high[h] & low[l], one bit
// per class and high nibble that holds it; no bit: a word byte.
struct NibbleTables {
  std::array<std::uint8_t, 16> low{}, high{};
  std::uint8_t space = 0, punct = 0;  // the bits of each class
};

constexpr NibbleTables make_nibble_tables(const ClassTable& table) {
  NibbleTables tables;
  int bits = 0;
  for (int h = 0; h < 8; ++h)
    for (const CharClass c : {CharClass::space, CharClass::punct}) {
      bool holds = false;
      for (int l = 0; l < 16; ++l) holds |= table[h << 4 | l] == c;
      if (!holds) continue;
      if (bits == 8) throw "more than eight (class, high nibble) pairs";
      const auto bit = static_cast<std::uint8_t>(1u << bits++);
      tables.high[h] |= bit;
      (c == CharClass::space ? tables.space : tables.punct) |= bit;
      for (int l = 0; l < 16; ++l)
        if (table[h << 4 | l] == c) tables.low[l] |= bit;
    }
  return tables;
}

constexpr NibbleTables kWhitespaceNibbles = make_nibble_tables(kWhitespaceTable);
constexpr NibbleTables kPunctNibbles = make_nibble_tables(kPunctTable);

// An ASCII sentence (nearly every one of most corpora) in one vector pass:
// the bytes' classes by two table lookups, sixteen at a time, into masks of
// 64 bytes; a token starts at a word byte after none and at each punctuation
// byte, and ends before a non-word byte after a word byte and after each
// punctuation byte. Lowercasing copies the sentence with its capitals
// lowered into `lowered`, where the tokens then point. The tokens are the
// Scanner's. Returns false, adding no token, at a non-ASCII byte: the
// Scanner takes the sentence then.
template <bool kSplitPunct, bool kLowercase>
[[gnu::target("ssse3")]] bool split_ascii(std::string_view text, std::vector<std::string_view>& tokens,
                                          std::string& lowered) {
  const std::size_t n = text.size();
  // Only ever grown (resizing writes), with 16 bytes to spare: the last block is stored whole.
  if (kLowercase && lowered.size() < n + 16) lowered.resize(n + 16);
  const char* chars = kLowercase ? lowered.data() : text.data();
  const NibbleTables& nibbles = kSplitPunct ? kPunctNibbles : kWhitespaceNibbles;
  const __m128i low_table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(nibbles.low.data()));
  const __m128i high_table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(nibbles.high.data()));
  const __m128i space_bits = _mm_set1_epi8(static_cast<char>(nibbles.space));
  const __m128i punct_bits = _mm_set1_epi8(static_cast<char>(nibbles.punct));
  const __m128i nibble = _mm_set1_epi8(0x0F), zero = _mm_setzero_si128();
  const __m128i lane_numbers = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const auto has_bits = [zero](__m128i classes, __m128i bits) {
    return static_cast<std::uint64_t>(~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(classes, bits), zero)) & 0xFFFF);
  };
  std::size_t ended = 0;  // tokens whose end is known (the others have size 0)
  std::uint64_t word_carry = 0, punct_carry = 0;  // the last byte of the previous 64: a word byte, punctuation
  for (std::size_t base = 0; base < n; base += 64) {
    const std::size_t size = std::min<std::size_t>(64, n - base);
    std::uint64_t space = 0, punct = 0, non_ascii = 0;
    for (std::size_t k = 0; k < size; k += 16) {
      const char* at = text.data() + base + k;
      const std::size_t bytes = std::min<std::size_t>(16, size - k);
      __m128i v;
      if (bytes == 16) {
        v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      } else {
        // The last block, its bytes past the text made spaces: read with them
        // where the page allows (a copy of the last bytes cost a call whose
        // branches on their count were mispredicted), else copied.
        if (within_page(at, 16)) {
          v = load_sixteen_in_page(at);
        } else {
          alignas(16) char tail[16];
          std::memcpy(tail, at, bytes);
          v = _mm_load_si128(reinterpret_cast<const __m128i*>(tail));
        }
        const __m128i in_text = _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(bytes)), lane_numbers);
        v = _mm_or_si128(_mm_and_si128(in_text, v), _mm_andnot_si128(in_text, _mm_set1_epi8(' ')));
      }
      non_ascii |= static_cast<std::uint64_t>(_mm_movemask_epi8(v)) << k;
      const __m128i classes = _mm_and_si128(_mm_shuffle_epi8(low_table, _mm_and_si128(v, nibble)),
                                            _mm_shuffle_epi8(high_table, _mm_and_si128(_mm_srli_epi16(v, 4), nibble)));
      space |= has_bits(classes, space_bits) << k;
      if (kSplitPunct) punct |= has_bits(classes, punct_bits) << k;
      if (kLowercase) {
        const __m128i capital = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));
        const __m128i lower = _mm_add_epi8(v, _mm_and_si128(capital, _mm_set1_epi8(0x20)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(lowered.data() + base + k), lower);
      }
    }
    if (non_ascii != 0) {
      tokens.clear();
      return false;
    }
    const std::uint64_t valid = size == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << size) - 1;
    const std::uint64_t word = ~(space | punct) & valid;
    const std::uint64_t word_before = word << 1 | word_carry, punct_before = punct << 1 | punct_carry;
    for (std::uint64_t starts = (word & ~word_before) | punct; starts != 0; starts &= starts - 1)
      tokens.emplace_back(chars + base + std::countr_zero(starts), 0);
    for (std::uint64_t ends = (word_before & ~word) | punct_before; ends != 0; ends &= ends - 1, ++ended)
      tokens[ended] = {tokens[ended].data(), base + std::countr_zero(ends) - static_cast<std::size_t>(tokens[ended].data() - chars)};
    word_carry = word >> 63;
    punct_carry = punct >> 63;
  }
  if ((word_carry | punct_carry) != 0) tokens[ended] = {tokens[ended].data(), n - static_cast<std::size_t>(tokens[ended].data() - chars)};
  return true;
}

// Whether this CPU has pshufb (every x86-64 CPU of the last fifteen years).
const bool kHasSsse3 = __builtin_cpu_supports("ssse3");
#endif

}  // namespace

Tokenizer::Tokenizer(TokenizerOptions options) : options_(options) {}

void Tokenizer::tokenize(std::string_view text, std::vector<std::string_view>& tokens) {
  const bool split_punct = options_.kind == TokenizerKind::punct;
  if (split_punct && options_.lowercase) run<true, true>(text, tokens);
  if (split_punct && !options_.lowercase) run<true, false>(text, tokens);
  if (!split_punct && options_.lowercase) run<false, true>(text, tokens);
  if (!split_punct && !options_.lowercase) run<false, false>(text, tokens);
}

template <bool kSplitPunct, bool kLowercase>
void Tokenizer::run(std::string_view text, std::vector<std::string_view>& tokens) {
  tokens.clear();
#ifdef __x86_64__
  if (kHasSsse3 && split_ascii<kSplitPunct, kLowercase>(text, tokens, folded_)) return;
#endif
  folded_.clear();
  moved_.clear();
  Scanner<kSplitPunct, kLowercase>(text, tokens, folded_, moved_).run();
}

}  // namespace tdcone::text
