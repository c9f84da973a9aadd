// Interning alone (bench/intern.sh runs it): the sides of a TSV corpus (src,
// tgt, ...; a src repeating the line before's is skipped, as the read does)
// tokenized, then tokenized and interned, sentence by sentence as the read
// does; the difference is the interning. The same again for the sides of the
// corpus's first lines repeated to as many words: a vocabulary whose table
// stays in the L1 cache, so that the per-word work shows apart from the
// cache misses of a large table. Prints one JSON object, the best of a few
// passes each.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/text/tokenizer.hpp"
#include "tdcone/text/vocabulary.hpp"

using namespace tdcone::text;

namespace {

// Sentences end to end in `text`, sentence i at [starts[i], starts[i + 1]).
struct Sides {
  std::string text;
  std::vector<std::size_t> starts{0};
  void add(std::string_view side) {
    text.append(side);
    starts.push_back(text.size());
  }
  std::size_t size() const { return starts.size() - 1; }
  std::string_view operator[](std::size_t i) const { return {text.data() + starts[i], starts[i + 1] - starts[i]}; }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Timing {
  double tokenize = 1e30, intern = 1e30;  // the best of the passes
  std::size_t words = 0, vocabulary = 0;
};

Timing time_interning(const Sides& sides, int passes) {
  Tokenizer tokenizer(TokenizerOptions{});
  std::vector<std::string_view> tokens;
  Timing best;
  for (int pass = 0; pass < passes; ++pass) {
    std::size_t words = 0;
    auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < sides.size(); ++i) {
      tokenizer.tokenize(sides[i], tokens);
      words += tokens.size();
    }
    const double tokenize = seconds_since(start);
    Vocabulary vocabulary;
    std::vector<WordId> ids;
    ids.reserve(words);
    start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < sides.size(); ++i) {
      tokenizer.tokenize(sides[i], tokens);
      vocabulary.intern(tokens, ids);
    }
    const double both = seconds_since(start);
    best.tokenize = std::min(best.tokenize, tokenize);
    best.intern = std::min(best.intern, std::max(0.0, both - tokenize));  // tiny inputs: the two passes' noise
    best.words = words;
    best.vocabulary = vocabulary.size() - 1;  // without NULL
  }
  return best;
}

void print(const char* name, const Timing& t) {
  std::printf("\"%s\": {\"words\": %zu, \"vocabulary\": %zu, \"tokenize_seconds\": %.3f, \"intern_seconds\": %.3f, "
              "\"ns_per_word\": %.2f}",
              name, t.words, t.vocabulary, t.tokenize, t.intern,
              t.words ? t.intern * 1e9 / static_cast<double>(t.words) : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS.tsv [PASSES] [HOT_LINES]\n", argv[0]);
    return 2;
  }
  const int passes = argc > 2 ? std::max(1, std::stoi(argv[2])) : 3;
  const std::size_t hot_lines = argc > 3 ? std::stoul(argv[3]) : 1000;
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[1]);
    return 1;
  }
  Sides corpus;
  std::size_t hot_end = 0;  // the sides of the first hot_lines lines
  std::string line, last_src;
  for (std::size_t lines = 0; std::getline(in, line); ++lines) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const std::size_t end = std::min(line.find('\t', tab + 1), line.size());
    const std::string_view src(line.data(), tab), tgt(line.data() + tab + 1, end - tab - 1);
    if (src != last_src) corpus.add(src);
    corpus.add(tgt);
    last_src.assign(src);
    if (lines + 1 == hot_lines) hot_end = corpus.size();
  }
  if (corpus.size() == 0) {
    std::fprintf(stderr, "%s: no line with a tab in %s\n", argv[0], argv[1]);
    return 1;
  }
  if (hot_end == 0) hot_end = corpus.size();
  Sides hot;  // empty if the first lines' sides are (the loop would never end)
  if (corpus.starts[hot_end] > 0)
    for (std::size_t i = 0; hot.text.size() < corpus.text.size(); i = (i + 1) % hot_end) hot.add(corpus[i]);
  std::printf("{\"bench\": \"intern\", \"sides\": %zu, \"hot_lines\": %zu, ", corpus.size(), hot_lines);
  print("corpus", time_interning(corpus, passes));
  std::printf(", ");
  print("hot", time_interning(hot, passes));
  std::printf("}\n");
}
