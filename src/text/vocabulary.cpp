#include "tdcone/text/vocabulary.hpp"

namespace tdcone::text {

Vocabulary::Vocabulary() { words_.emplace_back(); }  // id 0: NULL

// Debian's abseil has its own string_view type.
static absl::string_view key(std::string_view word) { return {word.data(), word.size()}; }

WordId Vocabulary::intern(std::string_view word) {
  auto found = ids_.find(key(word));
  if (found != ids_.end()) return found->second;
  const auto id = static_cast<WordId>(words_.size());
  words_.emplace_back(word);
  ids_.emplace(words_.back(), id);
  return id;
}

WordId Vocabulary::find(std::string_view word) const {
  auto found = ids_.find(key(word));
  return found == ids_.end() ? kNullWord : found->second;
}

std::uint64_t Vocabulary::bytes() const {
  std::uint64_t total = words_.capacity() * sizeof(std::string) + ids_.capacity() * (sizeof(std::string) + 8 + 1);
  for (const std::string& w : words_)
    if (w.capacity() > 15) total += 2 * (w.capacity() + 1);  // the word and its key in ids_
  return total;
}

}  // namespace tdcone::text
