#include "tdcone/synth/word_list.hpp"

#include <iterator>
#include <unordered_set>

#include "tdcone/synth/random.hpp"

namespace tdcone::synth {

namespace {

// Consonant-vowel syllables, a consonant cluster only at the start, a coda only at the end.
std::string make_word(int syllables, bool accented, Rng& rng) {
  static constexpr std::string_view initials[] = {"b",  "c",  "d",  "f",  "g",  "h",  "k", "l",  "m",
                                                  "n",  "p",  "r",  "s",  "t",  "v",  "w", "st", "tr",
                                                  "br", "ch", "sh", "th", "pl", "gr", "",  "",   ""};
  static constexpr std::string_view consonants[] = {"b", "c", "d", "f", "g", "k", "l", "m",
                                                    "n", "p", "r", "s", "t", "v", "z"};
  static constexpr std::string_view vowels[] = {"a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ou", "y"};
  static constexpr std::string_view accented_vowels[] = {"é", "ü", "ö", "ä"};
  static constexpr std::string_view codas[] = {"", "", "", "", "n", "r", "s", "l", "t", "m", "nd", "st"};
  std::string word;
  for (int s = 0; s < syllables; ++s) {
    word += s == 0 ? initials[rng.below(std::size(initials))] : consonants[rng.below(std::size(consonants))];
    const bool last = s + 1 == syllables;
    if (accented && last && rng.chance(0.8)) {
      word += accented_vowels[rng.below(std::size(accented_vowels))];
    } else {
      word += vowels[rng.below(std::size(vowels))];
    }
  }
  word += accented && rng.chance(0.2) ? "ß" : codas[rng.below(std::size(codas))];
  return word;
}

}  // namespace

WordList::WordList(std::uint32_t size, std::uint64_t seed) {
  Rng rng(seed ^ 0x766F636162756C61ull);  // a stream of its own, apart from the lines
  std::unordered_set<std::string> seen;
  seen.reserve(size);
  offsets_.push_back(0);
  for (std::uint32_t rank = 0; rank < size; ++rank) {
    int syllables = 1 + (rank >= 100) + (rank >= 3000) + (rank >= 60000);
    const bool accented = rank >= 20 && rng.chance(0.006);  // é ü ö ä ß, for case folding
    for (int attempt = 1;; ++attempt) {
      const std::string word = make_word(syllables + (rank >= 20 && rng.chance(0.25)), accented, rng);
      if (seen.insert(word).second) {
        text_ += word;
        break;
      }
      if (attempt % 8 == 0) ++syllables;  // this length is crowded
    }
    offsets_.push_back(static_cast<std::uint32_t>(text_.size()));
  }
}

}  // namespace tdcone::synth
