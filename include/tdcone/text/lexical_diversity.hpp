#pragma once
// Lexical diversity of a pair (issue 22): the clipped n-gram matches of the
// output against the input (modified BLEU without brevity penalty, unigram
// precision), the length ratio and the marker bits (schema/pair_markers.hpp).
// Per pair only integers are kept; the doubles are computed from them when a
// result is written, and the sums of a subset are integers too, so every
// value is the same for any rank count.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "tdcone/schema/pair_markers.hpp"
#include "tdcone/text/vocabulary.hpp"

namespace tdcone::text {

/// n-gram orders of BLEU: 1..4.
inline constexpr std::size_t kBleuOrders = 4;

/// Clipped n-gram matches m_1..m_4 of an output against its input: each
/// output n-gram counts at most as often as it occurs in the input.
using NgramMatches = std::array<std::uint32_t, kBleuOrders>;

/// c_n: the output's n-grams, max(tgt_len - n + 1, 0); `order` is n - 1.
inline std::uint64_t ngram_count(std::uint64_t tgt_len, std::size_t order) {
  return tgt_len > order ? tgt_len - order : 0;
}

/// A pair's BLEU of the output against the input, no brevity penalty: the
/// geometric mean of p_1 = m_1/c_1 and p_n = (m_n + 1)/(c_n + 1) for n = 2..4
/// (Lin & Och 2004's add-one). NaN for an empty output, 0 when m_1 = 0.
double pair_bleu(const NgramMatches& matches, std::uint32_t tgt_len);
/// m_1/c_1; NaN for an empty output.
double pair_unigram_precision(const NgramMatches& matches, std::uint32_t tgt_len);
/// The longer side's tokens over the shorter's: 1 for equal lengths, +inf
/// when exactly one side is empty, NaN when both are.
double length_ratio(std::uint32_t src_len, std::uint32_t tgt_len);

/// Σ m_n and Σ c_n of a set of pairs: exact, so the same on any rank count.
struct DiversitySums {
  std::array<std::uint64_t, kBleuOrders> matches{};  // Σ m_n
  std::array<std::uint64_t, kBleuOrders> ngrams{};   // Σ c_n

  void add(const NgramMatches& pair_matches, std::uint32_t tgt_len);
  DiversitySums& operator+=(const DiversitySums& other);
  /// Corpus BLEU without brevity penalty or smoothing: the geometric mean of
  /// the four Σm_n/Σc_n; NaN when Σc_1 = 0, else 0 when any Σm_n = 0.
  double bleu() const;
  /// Σm_1/Σc_1; NaN when Σc_1 = 0.
  double unigram_precision() const;
};

/// Bytes after a text that side_markers() may read with `slack`.
inline constexpr std::size_t kMarkerScanSlack = 17;
/// The schema::PairMarker src_* bits of one side's raw text (valid UTF-8).
/// `slack`: the kMarkerScanSlack bytes after the text may be read (whatever
/// they hold), so the text's end is scanned as fast as the rest.
std::uint16_t side_markers(std::string_view text, bool slack = false);

/// Clipped n-gram matches of outputs against one input, the input's n-grams
/// indexed once (corpora such as the Twitter URL file repeat an input over
/// many consecutive outputs).
class NgramOverlap {
 public:
  /// Indexes the n-grams (orders 1..4) of `input`, a sentence's word ids in order.
  void set_input(std::span<const WordId> input);
  /// m_1..m_4 of `output` (word ids in order) against the input.
  NgramMatches match(std::span<const WordId> output);

 private:
  // An n-gram is (its (n-1)-gram prefix's class, its last word); a class
  // numbers one distinct n-gram of the input, from 1 (0: the empty prefix of
  // a unigram, or not in the input).
  static std::uint64_t key(std::uint32_t prefix, WordId word) { return std::uint64_t{prefix} << 32 | word; }
  static std::size_t slot_of(std::uint64_t key, std::size_t mask) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
  }
  // The class of `key`, or 0.
  std::uint32_t find(std::uint64_t key) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = slot_of(key, mask);; at = (at + 1) & mask) {
      const Slot& slot = slots_[at];
      if (slot.stamp != stamp_) return 0;
      if (slot.key == key) return slot.ngram_class;
    }
  }
  std::uint32_t insert(std::uint64_t key);
  // An input word's unigram class by one load: a direct-mapped table of 256
  // entries, a word's entry chosen by 8 bits of its hash. An output word not
  // in the input finds another word (or none) there, known without a probe;
  // an entry that two input words share is marked, and its words are looked
  // up in the hash table.
  static unsigned word_bit(WordId word) { return static_cast<unsigned>((word * 0x9E3779B97F4A7C15ull) >> 56); }
  static constexpr std::uint32_t kShared = ~std::uint32_t{0};  // the class of an entry two words share
  struct Unigram {
    WordId word = kNullWord;        // kNullWord: none (no output word is NULL)
    std::uint32_t ngram_class = 0;  // kShared: look the word up
  };
  std::uint32_t unigram_class(WordId word) const;

  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t ngram_class = 0;
    std::uint32_t stamp = 0;  // a slot is in use when it has the current stamp: clearing is one increment
  };
  std::vector<Slot> slots_;  // a power of two, at most half full
  std::uint32_t stamp_ = 0;
  std::vector<std::uint32_t> input_count_;  // per class: occurrences in the input
  std::vector<std::uint32_t> left_;         // per class: input occurrences not yet matched
  std::array<Unigram, 256> unigrams_{};
  std::vector<std::uint32_t> classes_;  // scratch of match(): per output word, its unigram class (0 past the end)
  std::vector<std::uint32_t> found_;    // scratch of match(): the output positions whose word is in the input
};

/// Per pair, what the diversity columns of /pairs and the subsets' sums need:
/// the matches packed four bytes a pair (an output of more than
/// kPackedTgtLen tokens keeps its matches in `long_matches`) and the markers.
class PairDiversity {
 public:
  static constexpr std::uint32_t kPackedTgtLen = 255;

  void add(const NgramMatches& matches, std::uint32_t tgt_len, std::uint16_t markers);
  std::size_t size() const { return markers_.size(); }
  /// m_1..m_4 of local pair i (`tgt_len`: its output's tokens, as added).
  NgramMatches matches(std::size_t i, std::uint32_t tgt_len) const;
  const std::vector<std::uint16_t>& markers() const { return markers_; }

  void reserve(std::size_t pairs);
  void shrink_to_fit();
  std::uint64_t bytes() const;

 private:
  std::vector<std::uint32_t> packed_;  // m_n in byte n - 1
  std::vector<std::uint16_t> markers_;
  std::vector<std::pair<std::uint64_t, NgramMatches>> long_matches_;  // (local pair, matches), in pair order
};

}  // namespace tdcone::text
