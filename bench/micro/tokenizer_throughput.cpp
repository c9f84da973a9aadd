// Tokenizer throughput on ~50 MB of mixed English text (bench/tokenizer.sh
// runs it): one JSON array, an object per tokenizer and case setting.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/text/tokenizer.hpp"

using namespace tdcone::text;

int main() {
  const std::vector<std::string> sentences = {
      "The quick brown fox jumps over the lazy dog, and nobody seems to mind.",
      "In 2023, the company's revenue grew by 12.5% to $4.2 billion (up from $3.7B).",
      "“I can't believe it,” she said — and then she laughed.",
      "Dr. Müller visited São Paulo, Zürich and Reykjavík last week.",
      "Please e-mail support@example.com or call +1-555-0100 before 5 p.m.",
      "WHAT a day!!! Honestly... I'm exhausted; let's talk tomorrow?",
      "The café's crème brûlée was, by all accounts, rather excellent.",
      "Section 4.2(b) states: \"all parties shall comply\" [see Annex I].",
      "Straße, naïve, résumé and coöperate are spelled with diacritics.",
      "He typed a+b=c, then x^2 and ~/bin/run.sh | grep 'error' > log.txt",
  };
  std::string corpus;
  std::uint64_t state = 88172645463325252ull;  // xorshift: vary sentence order
  while (corpus.size() < 50u * 1000 * 1000) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    corpus += sentences[state % sentences.size()];
    corpus += '\n';
  }
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < corpus.size();) {
    const std::size_t end = corpus.find('\n', start);
    lines.emplace_back(corpus.data() + start, end - start);
    start = end + 1;
  }
  std::printf("[");
  bool first = true;
  for (auto kind : {TokenizerKind::whitespace, TokenizerKind::punct}) {
    for (bool lowercase : {false, true}) {
      Tokenizer tokenizer({kind, lowercase});
      std::vector<std::string_view> tokens;
      std::size_t count = 0;
      const auto start = std::chrono::steady_clock::now();
      for (auto line : lines) {
        tokenizer.tokenize(line, tokens);
        count += tokens.size();
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%s{\"tokenizer\": \"%s\", \"lowercase\": %s, \"tokens\": %zu, \"seconds\": %.3f, "
                  "\"ns_per_token\": %.2f, \"mb_per_s\": %.1f}",
                  first ? "" : ",\n  ", kind == TokenizerKind::punct ? "punct" : "whitespace",
                  lowercase ? "true" : "false", count, seconds, seconds * 1e9 / count, corpus.size() / seconds / 1e6);
      first = false;
    }
  }
  std::printf("]\n");
}
