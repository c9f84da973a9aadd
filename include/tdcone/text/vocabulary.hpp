#pragma once
// Word types of one rank, interned to small dense ids.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tdcone::text {

using WordId = std::uint32_t;
/// Id 0 is the NULL token of the alignment matrix; real words start at 1.
inline constexpr WordId kNullWord = 0;

/// The words live end to end in one arena; an open-addressing table of
/// (hash tag, id, the word itself if short, else its offset) finds them, so
/// interning a known word allocates nothing and a short one reads no arena.
class Vocabulary {
 public:
  Vocabulary();

  /// The id of `word`, adding it if new.
  WordId intern(std::string_view word);
  /// intern() of each word in turn, the ids appended to `ids`. Faster for a
  /// sentence than one at a time: the table's cache misses overlap.
  void intern(std::span<const std::string_view> words, std::vector<WordId>& ids);
  /// The id of `word`, or kNullWord if it was never interned.
  WordId find(std::string_view word) const;

  /// A 64-bit hash of the bytes of word k of the last span intern(): a
  /// function of the word alone, so the same on every rank.
  std::uint64_t last_word_hash(std::size_t k) const { return keys_[k].hash; }

  /// Valid until the next intern().
  std::string_view word(WordId id) const { return {arena_.data() + starts_[id], starts_[id + 1] - starts_[id]}; }
  /// Number of ids, NULL included.
  std::size_t size() const { return starts_.size() - 1; }
  /// Bytes held, roughly (for the memory budget).
  std::uint64_t bytes() const;

 private:
  // Where a word is, with enough to rule out most other words without the
  // arena: a probe then costs one cache miss for the slot (prefetched by the
  // span intern()), and a long word one more for its bytes.
  struct Slot {
    std::uint32_t tag = 0;   // bits of the word's hash and its length (vocabulary.cpp)
    WordId id = kNullWord;   // kNullWord: empty (NULL itself is never looked up)
    std::uint64_t bytes = 0;  // a short word itself (Key::bytes), a long one's starts_[id]
  };
  // What a probe needs of a word, computed once (the span intern() computes a sentence's first).
  struct Key {
    std::uint64_t hash = 0;
    std::uint64_t bytes = 0;  // a word of at most 8 bytes, zero-padded, as one number
  };

  static Key key_of(std::string_view word);
  // The slot of `slots` (mask: their count - 1) holding `word` (key `key`),
  // or the empty slot where it would go.
  std::size_t probe(const Slot* slots, std::size_t mask, std::string_view word, Key key) const;
  WordId intern(std::string_view word, Key key);
  // Adds `word`, new, at the empty slot `at` that probe() found for it.
  WordId add(std::string_view word, Key key, std::size_t at);
  void grow();

  std::string arena_;                 // every word, end to end
  std::vector<std::uint64_t> starts_;  // word `id` is arena_[starts_[id], starts_[id + 1])
  std::vector<Slot> slots_;           // a power of two, at most half full
  std::vector<Key> keys_;             // scratch of the span intern()
};

}  // namespace tdcone::text
