#pragma once
// Word types of one rank, interned to small dense ids.
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tdcone::text {

using WordId = std::uint32_t;
/// Id 0 is the NULL token of the alignment matrix; real words start at 1.
inline constexpr WordId kNullWord = 0;

class Vocabulary {
 public:
  Vocabulary();

  /// The id of `word`, adding it if new.
  WordId intern(std::string_view word);
  /// The id of `word`, or kNullWord if it was never interned.
  WordId find(std::string_view word) const;

  const std::string& word(WordId id) const { return words_[id]; }
  /// Number of ids, NULL included.
  std::size_t size() const { return words_.size(); }
  /// Bytes held, roughly (for the memory budget).
  std::uint64_t bytes() const;

 private:
  absl::flat_hash_map<std::string, WordId> ids_;
  std::vector<std::string> words_;
};

}  // namespace tdcone::text
