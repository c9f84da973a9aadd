#include "tdcone/text/lexical_diversity.hpp"

#include <utf8proc.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "tdcone/core/memory_pages.hpp"

namespace tdcone::text {

using namespace schema;  // the PairMarker bits

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The geometric mean of four precisions, each num/den with den > 0: the
// fourth root of their product (two square roots, each correctly rounded; the
// product of four precisions of at most 2^32 words each cannot underflow).
double geometric_mean(const std::array<double, kBleuOrders>& numerators,
                      const std::array<double, kBleuOrders>& denominators) {
  static_assert(kBleuOrders == 4);
  double product = 1;
  for (std::size_t n = 0; n < kBleuOrders; ++n) {
    if (numerators[n] == 0) return 0.0;
    product *= numerators[n] / denominators[n];
  }
  return std::sqrt(std::sqrt(product));
}

// Decodes the code point at text[at] (valid UTF-8 from the caller; a broken
// sequence reads as U+FFFD, one byte).
char32_t decode_at(std::string_view text, std::size_t at, std::size_t& length) {
  utf8proc_int32_t cp = 0;
  const auto read = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + at),
                                     static_cast<utf8proc_ssize_t>(text.size() - at), &cp);
  if (read < 1) {
    length = 1;
    return 0xFFFD;
  }
  length = static_cast<std::size_t>(read);
  return static_cast<char32_t>(cp);
}

// A letter, mark or number of Unicode, or `_`: what words are made of.
bool is_word_character(char32_t cp) {
  if (cp < 0x80) return cp == '_' || (cp >= '0' && cp <= '9') || ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z');
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
      return true;
    default:
      return false;
  }
}

// Unicode White_Space.
bool is_white_space(char32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == ' ' || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F ||
         cp == 0x3000;
}

// `text` at `at` begins with `prefix` (ASCII, lowercase), in any case.
bool starts_with_folded(std::string_view text, std::size_t at, std::string_view prefix) {
  if (text.size() - at < prefix.size()) return false;
  for (std::size_t k = 0; k < prefix.size(); ++k) {
    const char c = text[at + k];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c) != prefix[k]) return false;
  }
  return true;
}

bool ends_in_question_mark(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t start = end - 1;  // the last character's lead byte
    while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    std::size_t length = 0;
    const char32_t cp = decode_at(text.substr(0, end), start, length);
    if (!is_white_space(cp)) return cp == '?';
    end = start;
  }
  return false;
}

}  // namespace

double pair_bleu(const NgramMatches& matches, std::uint32_t tgt_len) {
  if (tgt_len == 0) return kNaN;
  std::array<double, kBleuOrders> numerators{}, denominators{};
  for (std::size_t n = 0; n < kBleuOrders; ++n) {
    const double add_one = n == 0 ? 0.0 : 1.0;  // p_1 unsmoothed
    numerators[n] = matches[n] + add_one;
    denominators[n] = static_cast<double>(ngram_count(tgt_len, n)) + add_one;
  }
  return geometric_mean(numerators, denominators);
}

double pair_unigram_precision(const NgramMatches& matches, std::uint32_t tgt_len) {
  return tgt_len == 0 ? kNaN : static_cast<double>(matches[0]) / tgt_len;
}

double length_ratio(std::uint32_t src_len, std::uint32_t tgt_len) {
  const std::uint32_t shorter = std::min(src_len, tgt_len), longer = std::max(src_len, tgt_len);
  if (longer == 0) return kNaN;
  if (shorter == 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(longer) / shorter;
}

void DiversitySums::add(const NgramMatches& pair_matches, std::uint32_t tgt_len) {
  for (std::size_t n = 0; n < kBleuOrders; ++n) {
    matches[n] += pair_matches[n];
    ngrams[n] += ngram_count(tgt_len, n);
  }
}

DiversitySums& DiversitySums::operator+=(const DiversitySums& other) {
  for (std::size_t n = 0; n < kBleuOrders; ++n) {
    matches[n] += other.matches[n];
    ngrams[n] += other.ngrams[n];
  }
  return *this;
}

double DiversitySums::bleu() const {
  if (ngrams[0] == 0) return kNaN;
  std::array<double, kBleuOrders> numerators{}, denominators{};
  for (std::size_t n = 0; n < kBleuOrders; ++n) {
    numerators[n] = static_cast<double>(matches[n]);
    denominators[n] = static_cast<double>(ngrams[n]);
  }
  return geometric_mean(numerators, denominators);  // 0 when any Σm_n is 0 (also when Σc_n is)
}

double DiversitySums::unigram_precision() const {
  return ngrams[0] == 0 ? kNaN : static_cast<double>(matches[0]) / static_cast<double>(ngrams[0]);
}

namespace {

// Where a marker may begin: @, #, and "ht" or "ww" of a URL (any case).
bool may_begin_marker(std::string_view text, std::size_t at) {
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte == '@' || byte == '#') return true;
  if (at + 1 >= text.size()) return false;
  const int folded = byte | 0x20, next = static_cast<unsigned char>(text[at + 1]) | 0x20;
  return (folded == 'h' && next == 't') || (folded == 'w' && next == 'w');
}

// The first position from `at` where a marker may begin, or text.size() (or more).
// Sixteen positions a step (each with the byte after it): most of a sentence
// is skipped without a look. With `slack` (kMarkerScanSlack readable bytes
// after the text) the last positions too: no byte-by-byte tail.
std::size_t next_candidate(std::string_view text, std::size_t at, bool slack) {
#ifdef __SSE2__
  const __m128i at_sign = _mm_set1_epi8('@'), hash = _mm_set1_epi8('#'), h = _mm_set1_epi8('h'),
                t = _mm_set1_epi8('t'), w = _mm_set1_epi8('w'), case_bit = _mm_set1_epi8(0x20);
  static_assert(kMarkerScanSlack >= 16);
  const std::size_t readable = text.size() + (slack ? kMarkerScanSlack : 0);
  for (; at < text.size() && at + 17 <= readable; at += 16) {
    const auto* bytes_at = reinterpret_cast<const __m128i*>(text.data() + at);
    const __m128i bytes = _mm_loadu_si128(bytes_at);
    const __m128i folded = _mm_or_si128(bytes, case_bit);
    const __m128i next = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + at + 1)), case_bit);
    const __m128i url = _mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(folded, h), _mm_cmpeq_epi8(next, t)),
                                     _mm_and_si128(_mm_cmpeq_epi8(folded, w), _mm_cmpeq_epi8(next, w)));
    const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, at_sign), _mm_cmpeq_epi8(bytes, hash)), url);
    // A hit in the slack returns text.size() or more: the end, to the caller.
    if (const int mask = _mm_movemask_epi8(hits))
      return at + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask)));
  }
#else
  (void)slack;
#endif
  while (at < text.size() && !may_begin_marker(text, at)) ++at;
  return at;
}

// Whether `at` is a word start: the text's start, or after a character that is no word character.
bool word_start(std::string_view text, std::size_t at) {
  if (at == 0) return true;
  std::size_t start = at - 1;  // the previous character's lead byte
  while (start > 0 && at - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  std::size_t length = 0;
  return !is_word_character(decode_at(text.substr(0, at), start, length));
}

}  // namespace

std::uint16_t side_markers(std::string_view text, bool slack) {
  std::uint16_t bits = ends_in_question_mark(text) ? src_question : 0;
  for (std::size_t at = next_candidate(text, 0, slack); at < text.size(); at = next_candidate(text, at + 1, slack)) {
    const char byte = text[at];
    if (byte == '@' || byte == '#') {
      const std::uint16_t bit = byte == '@' ? src_mention : src_hashtag;
      std::size_t length = 0;
      if (!(bits & bit) && at + 1 < text.size() && is_word_character(decode_at(text, at + 1, length)) &&
          word_start(text, at))
        bits |= bit;
    } else if (!(bits & src_url) &&
               (starts_with_folded(text, at, "http://") || starts_with_folded(text, at, "https://") ||
                starts_with_folded(text, at, "www.")) &&
               word_start(text, at)) {
      bits |= src_url;
    }
  }
  return bits;
}

void NgramOverlap::set_input(std::span<const WordId> input) {
  // At most kBleuOrders classes a word: the table stays at most half full.
  const std::size_t wanted = std::max<std::size_t>(64, std::bit_ceil(2 * kBleuOrders * input.size()));
  if (slots_.size() < wanted) {
    slots_.assign(wanted, Slot{});
    stamp_ = 0;
  }
  if (++stamp_ == 0) {  // the stamps wrapped: clear them once
    std::fill(slots_.begin(), slots_.end(), Slot{});
    stamp_ = 1;
  }
  input_count_.assign(1, 0);
  unigrams_.fill(Unigram{});
  for (std::size_t i = 0; i < input.size(); ++i) {
    std::uint32_t prefix = insert(key(0, input[i]));
    ++input_count_[prefix];
    Unigram& unigram = unigrams_[word_bit(input[i])];
    if (unigram.word == kNullWord && unigram.ngram_class == 0)  // empty
      unigram = {input[i], prefix};
    else if (unigram.word != input[i])
      unigram = {kNullWord, kShared};
    for (std::size_t order = 1; order < kBleuOrders && i + order < input.size(); ++order) {
      prefix = insert(key(prefix, input[i + order]));
      ++input_count_[prefix];
    }
  }
}

[[gnu::always_inline]] inline std::uint32_t NgramOverlap::unigram_class(WordId word) const {
  const Unigram unigram = unigrams_[word_bit(word)];
  if (unigram.ngram_class == kShared) [[unlikely]] return find(key(0, word));
  return unigram.word == word ? unigram.ngram_class : 0;
}

NgramMatches NgramOverlap::match(std::span<const WordId> output) {
  // Two passes: each output word's unigram class, and the positions of the
  // words in the input gathered, without a branch (whether an output word
  // is in the input follows no pattern, so a branch on it, word by word,
  // would be mispredicted often); then the n-grams from those positions
  // only. A match is taken from the input's counts left without a branch too.
  NgramMatches matches{};
  left_ = input_count_;
  const std::size_t n = output.size();
  if (classes_.size() < n + kBleuOrders) {
    classes_.resize(n + kBleuOrders);
    found_.resize(n);
  }
  std::uint32_t* const classes = classes_.data();
  std::uint32_t* const found = found_.data();
  std::size_t found_count = 0;
  for (std::size_t j = 0; j < n; ++j) {
    classes[j] = unigram_class(output[j]);
    found[found_count] = static_cast<std::uint32_t>(j);
    found_count += classes[j] != 0;
  }
  std::fill_n(classes + n, kBleuOrders, 0u);  // no n-gram from j reaches past the end
  std::uint32_t* const left = left_.data();
  const auto take = [left, &matches](std::uint32_t ngram_class, std::size_t order) {
    const std::uint32_t unmatched = left[ngram_class], matched = unmatched != 0;
    left[ngram_class] = unmatched - matched;
    matches[order] += matched;
  };
  for (std::size_t f = 0; f < found_count; ++f) {
    const std::size_t j = found[f];
    std::uint32_t prefix = classes[j];
    take(prefix, 0);
    // A longer n-gram from j needs its last word in the input too.
    for (std::size_t order = 1; order < kBleuOrders && classes[j + order] != 0; ++order) {
      prefix = find(key(prefix, output[j + order]));
      if (prefix == 0) break;  // nor does any longer n-gram from j occur in the input
      take(prefix, order);
    }
  }
  return matches;
}

std::uint32_t NgramOverlap::insert(std::uint64_t key) {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = slot_of(key, mask);; at = (at + 1) & mask) {
    Slot& slot = slots_[at];
    if (slot.stamp != stamp_) {
      slot = {key, static_cast<std::uint32_t>(input_count_.size()), stamp_};
      input_count_.push_back(0);
      return slot.ngram_class;
    }
    if (slot.key == key) return slot.ngram_class;
  }
}

void PairDiversity::add(const NgramMatches& matches, std::uint32_t tgt_len, std::uint16_t markers) {
  markers_.push_back(markers);
  if (tgt_len > kPackedTgtLen) {
    long_matches_.emplace_back(packed_.size(), matches);
    packed_.push_back(0);
    return;
  }
  std::uint32_t packed = 0;  // m_n <= tgt_len: a byte each
  for (std::size_t n = 0; n < kBleuOrders; ++n) packed |= matches[n] << (8 * n);
  packed_.push_back(packed);
}

NgramMatches PairDiversity::matches(std::size_t i, std::uint32_t tgt_len) const {
  NgramMatches matches{};
  if (tgt_len > kPackedTgtLen) {
    const auto found = std::lower_bound(long_matches_.begin(), long_matches_.end(), i,
                                        [](const auto& entry, std::size_t pair) { return entry.first < pair; });
    return found != long_matches_.end() && found->first == i ? found->second : matches;
  }
  for (std::size_t n = 0; n < kBleuOrders; ++n) matches[n] = packed_[i] >> (8 * n) & 0xFF;
  return matches;
}

void PairDiversity::reserve(std::size_t pairs) {
  packed_.reserve(pairs);
  markers_.reserve(pairs);
}

void PairDiversity::shrink_to_fit() {
  shrink_large_spares(packed_, markers_, long_matches_);
}

std::uint64_t PairDiversity::bytes() const {
  return packed_.capacity() * sizeof(packed_[0]) + markers_.capacity() * sizeof(markers_[0]) +
         long_matches_.capacity() * sizeof(long_matches_[0]);
}

}  // namespace tdcone::text
