#pragma once
// Splitting sentences into word tokens (docs/spec.md §2 "Tokenization").
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tdcone::text {

enum class TokenizerKind {
  whitespace,  // split on Unicode White_Space
  punct,       // also every Unicode punctuation character (P*) is its own token
};

struct TokenizerOptions {
  TokenizerKind kind = TokenizerKind::punct;
  bool lowercase = true;  // Unicode case folding (utf8proc), e.g. "Straße" -> "strasse"
};

class Tokenizer {
 public:
  explicit Tokenizer(TokenizerOptions options);

  /// Replaces `tokens` with the tokens of `text` (valid UTF-8, checked by the
  /// caller). The views point into `text` or into an internal buffer and stay
  /// valid until the next call.
  void tokenize(std::string_view text, std::vector<std::string_view>& tokens);

  const TokenizerOptions& options() const { return options_; }

 private:
  template <bool kSplitPunct, bool kLowercase>
  void run(std::string_view text, std::vector<std::string_view>& tokens);

  TokenizerOptions options_;
  std::string folded_;  // the words that case folding changes (an ASCII text: all of it, lowercased)
  std::vector<std::pair<std::size_t, std::size_t>> moved_;  // their (token, offset in folded_)
};

}  // namespace tdcone::text
