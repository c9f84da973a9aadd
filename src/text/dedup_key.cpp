#include "tdcone/text/dedup_key.hpp"

#include <utf8proc.h>
// Inlined: a side is a few dozen bytes, the call would cost as much as the hash.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace tdcone::text {

namespace {

DedupKey from_hash(const XXH128_hash_t& hash) { return {hash.high64, hash.low64}; }

DedupKey hash_of(std::string_view bytes) { return from_hash(XXH3_128bits(bytes.data(), bytes.size())); }

bool is_letter(utf8proc_int32_t cp) {
  const auto category = utf8proc_category(cp);
  return category >= UTF8PROC_CATEGORY_LU && category <= UTF8PROC_CATEGORY_LO;
}

void append(utf8proc_int32_t cp, std::string& out) {
  utf8proc_uint8_t encoded[4];
  const auto size = utf8proc_encode_char(cp, encoded);
  out.append(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(size));
}

}  // namespace

void letters_only(std::string_view text, std::string& out) {
  out.clear();
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto size = static_cast<utf8proc_ssize_t>(text.size());
  for (utf8proc_ssize_t at = 0; at < size;) {
    const unsigned char byte = bytes[at];
    if (byte < 0x80) {  // ASCII: its letters are A-Z and a-z
      if (byte >= 'A' && byte <= 'Z') out.push_back(static_cast<char>(byte + ('a' - 'A')));
      else if (byte >= 'a' && byte <= 'z') out.push_back(static_cast<char>(byte));
      ++at;
      continue;
    }
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t length = utf8proc_iterate(bytes + at, size - at, &cp);
    if (length <= 0) {  // the caller checked the UTF-8; a broken byte is no letter
      ++at;
      continue;
    }
    at += length;
    // Folded first, then filtered: "İ" folds to "i" and a combining dot, and keeps the "i".
    utf8proc_int32_t folded[8];
    int boundclass = 0;
    const utf8proc_ssize_t count = utf8proc_decompose_char(cp, folded, 8, UTF8PROC_CASEFOLD, &boundclass);
    if (count <= 0 || count > 8) {
      if (is_letter(cp)) append(cp, out);
      continue;
    }
    for (utf8proc_ssize_t k = 0; k < count; ++k)
      if (is_letter(folded[k])) append(folded[k], out);
  }
}

DedupKey DedupKeyMaker::side_key(std::string_view text, const Vocabulary& vocabulary, std::size_t words) {
  switch (mode_) {
    case DedupMode::none:
      return {};
    case DedupMode::exact:
      return hash_of(text);
    case DedupMode::tokens:
      word_hashes_.resize(words);
      for (std::size_t k = 0; k < words; ++k) word_hashes_[k] = vocabulary.last_word_hash(k);
      return from_hash(XXH3_128bits(word_hashes_.data(), word_hashes_.size() * sizeof(std::uint64_t)));
    case DedupMode::letters:
      letters_only(text, letters_);
      return hash_of(letters_);
  }
  return {};
}

DedupKey DedupKeyMaker::pair_key(const DedupKey& src, const DedupKey& tgt) {
  const std::uint64_t words[4] = {src.high, src.low, tgt.high, tgt.low};
  return from_hash(XXH3_128bits(words, sizeof words));
}

}  // namespace tdcone::text
