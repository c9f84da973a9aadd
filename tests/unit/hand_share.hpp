#pragma once
// A share of hand-written pairs for the engine tests: each side's
// whitespace-separated words interned and kept as a sorted type set, as the
// reader keeps them (text/tokenized_share.hpp).
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::test_support {

/// The sorted, unique ids of the whitespace-separated words of `sentence`,
/// interned into `vocabulary`: a side's type set as the reader keeps it.
inline std::vector<text::WordId> sorted_types(text::Vocabulary& vocabulary, const std::string& sentence) {
  std::istringstream words(sentence);
  std::vector<text::WordId> ids;
  for (std::string w; words >> w;) ids.push_back(vocabulary.intern(w));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

struct HandShare {
  text::Vocabulary vocabulary;
  text::TokenizedShare share;

  /// Adds the pair x -> y, with `flags` (schema::bad_line: a bad line).
  void add(const std::string& x, const std::string& y, std::uint8_t flags = 0) {
    share.flags.push_back(flags);
    share.src_len.push_back(0);
    share.tgt_len.push_back(0);
    for (const std::string* side : {&x, &y}) {
      const std::vector<text::WordId> ids = types(*side);
      share.type_start.push_back(share.types.size());
      share.type_count.push_back(static_cast<std::uint32_t>(ids.size()));
      share.types.insert(share.types.end(), ids.begin(), ids.end());
    }
    share.total_lines = share.size();
  }

  /// The sorted, unique ids of the words of `sentence`.
  std::vector<text::WordId> types(const std::string& sentence) { return sorted_types(vocabulary, sentence); }
};

}  // namespace tdcone::test_support
