#include "tdcone/text/vocabulary.hpp"

// Inlined: a word is a few bytes, the call would cost as much as the hash.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "page_loads.hpp"

namespace tdcone::text {

namespace {

constexpr std::size_t kInitialSlots = 1024;
constexpr std::size_t kShortWord = 8;  // bytes a slot holds in place of an arena offset

template <class T>
T load(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// a[0, n) == b[0, n), inline for the short words that are most of a text
// (two overlapping loads cover 4 to 16 bytes; none reads past n).
bool same_bytes(const char* a, const char* b, std::size_t n) {
  if (n > 16) return std::memcmp(a, b, n) == 0;
  if (n >= 8) return load<std::uint64_t>(a) == load<std::uint64_t>(b) && load<std::uint64_t>(a + n - 8) == load<std::uint64_t>(b + n - 8);
  if (n >= 4) return load<std::uint32_t>(a) == load<std::uint32_t>(b) && load<std::uint32_t>(a + n - 4) == load<std::uint32_t>(b + n - 4);
  return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

// The n <= kShortWord bytes at p as one little-endian number, zero-padded.
// One load and a mask where the page allows (nearly always): a branch on the
// length, a coin toss word by word, would be mispredicted often.
// Else overlapping loads as same_bytes(), none past n.
constexpr std::array<std::uint64_t, kShortWord + 1> kLowBytes = [] {  // the low n bytes of a word
  std::array<std::uint64_t, kShortWord + 1> masks{};
  for (std::size_t n = 1; n <= kShortWord; ++n) masks[n] = ~std::uint64_t{0} >> (8 * (kShortWord - n));
  return masks;
}();

std::uint64_t packed(const char* p, std::size_t n) {
  if (within_page(p, 8)) return load_eight_in_page(p) & kLowBytes[n];
  if (n >= 4) return std::uint64_t{load<std::uint32_t>(p)} | std::uint64_t{load<std::uint32_t>(p + n - 4)} << (8 * (n - 4));
  if (n == 0) return 0;
  const auto byte = [p](std::size_t k) { return std::uint64_t{static_cast<unsigned char>(p[k])} << (8 * k); };
  return byte(0) | byte(n / 2) | byte(n - 1);
}

// A short word's hash: one 64x64->128 multiply of its bytes and length,
// the halves folded (every input bit reaches both the slot and the tag bits).
std::uint64_t short_hash(std::uint64_t bytes, std::size_t n) {
  const unsigned __int128 product =
      static_cast<unsigned __int128>(bytes ^ 0x9E3779B97F4A7C15ull) * (0xD6E8FEB86659FD93ull + 2 * n);
  return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
}

// The high half picks the slot, the low half makes the tag: independent bits.
std::size_t home_slot(std::uint64_t hash, std::size_t mask) { return static_cast<std::size_t>(hash >> 32) & mask; }

constexpr std::uint32_t kLongWord = 0xFF;  // a tag's length byte for 255 bytes and more

// 24 bits of the hash and the length (up to kLongWord): most words that
// differ differ here, before any byte of the arena is read.
std::uint32_t tag_of(std::uint64_t hash, std::size_t length) {
  return (static_cast<std::uint32_t>(hash) << 8) | static_cast<std::uint32_t>(std::min<std::size_t>(length, kLongWord));
}

}  // namespace

Vocabulary::Vocabulary() : starts_{0, 0}, slots_(kInitialSlots) {}  // id 0: NULL, ""

// Inlined, as probe() and intern(word, key): a sentence's words are interned in one loop.
[[gnu::always_inline]] inline Vocabulary::Key Vocabulary::key_of(std::string_view word) {
  if (word.size() > kShortWord) return {XXH3_64bits(word.data(), word.size()), 0};
  const std::uint64_t bytes = packed(word.data(), word.size());
  return {short_hash(bytes, word.size()), bytes};
}

// The table as locals of the caller (the span intern() keeps them in registers).
[[gnu::always_inline]] inline std::size_t Vocabulary::probe(const Slot* slots, std::size_t mask, std::string_view word,
                                                            Key key) const {
  const std::uint32_t tag = tag_of(key.hash, word.size());
  std::size_t i = home_slot(key.hash, mask);
  if (word.size() <= kShortWord) {
    // The tag holds the length: the same tag and bytes are the same word. An
    // empty slot's tag, 0, differs from a word's but for an empty word, whose
    // bytes, 0, are then an empty slot's too: either way the probe stops there.
    for (;; i = (i + 1) & mask)
      if (slots[i].tag == tag ? slots[i].bytes == key.bytes : slots[i].id == kNullWord) return i;
  }
  for (;; i = (i + 1) & mask) {
    const Slot& slot = slots[i];
    if (slot.id == kNullWord) return i;
    if (slot.tag != tag) continue;
    if ((tag & kLongWord) == kLongWord && starts_[slot.id + 1] - starts_[slot.id] != word.size()) continue;
    if (same_bytes(arena_.data() + slot.bytes, word.data(), word.size())) return i;
  }
}

WordId Vocabulary::intern(std::string_view word) { return intern(word, key_of(word)); }

[[gnu::always_inline]] inline WordId Vocabulary::intern(std::string_view word, Key key) {
  const std::size_t at = probe(slots_.data(), slots_.size() - 1, word, key);
  const WordId id = slots_[at].id;
  return id != kNullWord ? id : add(word, key, at);
}

// Out of line: a new word is rare, and inlined it costs the span intern() registers.
[[gnu::noinline]] WordId Vocabulary::add(std::string_view word, Key key, std::size_t at) {
  const auto id = static_cast<WordId>(size());
  slots_[at] = {tag_of(key.hash, word.size()), id, word.size() <= kShortWord ? key.bytes : arena_.size()};
  arena_.append(word);
  starts_.push_back(arena_.size());
  if (2 * (size() - 1) > slots_.size()) grow();
  return id;
}

// A probe's first cache miss (the slot) on a large vocabulary: the slots of
// all words are fetched first, so that their misses overlap. The prefetches
// change nothing: the interning itself is word by word, each as intern(word).
//
// The table in locals and the adding of a new word out of line: with
// add() inlined in the loop, GCC kept the loop's pointers on the stack.
void Vocabulary::intern(std::span<const std::string_view> words, std::vector<WordId>& ids) {
  const std::size_t count = words.size();
  keys_.resize(count);
  Key* const keys = keys_.data();
  const Slot* slots = slots_.data();
  std::size_t mask = slots_.size() - 1;
  for (std::size_t k = 0; k < count; ++k) {
    keys[k] = key_of(words[k]);
    __builtin_prefetch(&slots[home_slot(keys[k].hash, mask)]);
  }
  const std::size_t first = ids.size();
  ids.resize(first + count);
  WordId* const out = ids.data() + first;
  for (std::size_t k = 0; k < count; ++k) {
    // Known words without a call in the loop (a call would put its values
    // in the few registers a call keeps); a new one leaves it for add().
    std::size_t at = 0;
    for (; k < count; ++k) {
      at = probe(slots, mask, words[k], keys[k]);
      const WordId id = slots[at].id;
      if (id == kNullWord) break;
      out[k] = id;
    }
    if (k == count) break;
    out[k] = add(words[k], keys[k], at);
    slots = slots_.data();  // add() may have grown the table
    mask = slots_.size() - 1;
  }
}

WordId Vocabulary::find(std::string_view word) const {
  return slots_[probe(slots_.data(), slots_.size() - 1, word, key_of(word))].id;
}

// Doubles the table; the hashes are recomputed from the arena (cheaper than keeping them).
void Vocabulary::grow() {
  slots_.assign(2 * slots_.size(), Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (WordId id = 1; id < size(); ++id) {
    const std::string_view w = word(id);
    const Key key = key_of(w);
    std::size_t i = home_slot(key.hash, mask);
    while (slots_[i].id != kNullWord) i = (i + 1) & mask;
    slots_[i] = {tag_of(key.hash, w.size()), id, w.size() <= kShortWord ? key.bytes : starts_[id]};
  }
}

std::uint64_t Vocabulary::bytes() const {
  return arena_.capacity() + starts_.capacity() * sizeof(std::uint64_t) + slots_.capacity() * sizeof(Slot);
}

}  // namespace tdcone::text
