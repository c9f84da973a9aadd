// Interning alone (bench/intern.sh runs it): the sides of a TSV corpus (src,
// tgt, ...; read and parsed as the read does, a src repeating the last one skipped)
// tokenized, then tokenized and interned, sentence by sentence as the read
// does; the difference is the interning. The same again for the sides of the
// corpus's first lines repeated to as many words: a vocabulary whose table
// stays in the L1 cache, so that the per-word work shows apart from the
// cache misses of a large table. Prints one JSON object, the best of a few
// passes each.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/text/tokenized_share.hpp"
#include "tdcone/text/tokenizer.hpp"
#include "tdcone/text/vocabulary.hpp"
#include "bench_arguments.hpp"
#include "bench_corpus.hpp"

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

// The sides of every good line of `path` (parsed as the read parses them; a
// src that repeats the last one read is not added again), and in `hot_end`
// how many of them the first `hot_lines` lines gave.
Sides read_sides(const std::string& path, std::size_t hot_lines, std::size_t& hot_end) {
  const std::vector<tdcone::io::InputFile> files = tdcone::io::resolve_inputs({path});
  const ReadOptions options = bench::corpus_read_options();
  tdcone::io::RecordParser parser(options.fields);
  Sides sides;
  std::string last_src;
  bool src_known = false;
  std::size_t lines = 0;
  hot_end = 0;
  for (const tdcone::io::Segment& segment : tdcone::io::plan_share(files, 0, 1)) {
    tdcone::io::LineReader reader(files[segment.file], segment, options.max_line_bytes);
    for (tdcone::io::Line line; reader.next(line); ++lines) {
      if (lines == hot_lines) hot_end = sides.size();
      tdcone::io::Record record;
      if (line.too_long || !parser.parse(line.text, record).empty()) continue;
      if (!src_known || record.src != last_src) sides.add(record.src);
      sides.add(record.tgt);
      last_src.assign(record.src);
      src_known = true;
    }
  }
  if (hot_end == 0) hot_end = sides.size();
  return sides;
}

}  // namespace

int main(int argc, char** argv) {
  int passes = 3;
  std::size_t hot_lines = 1000;
  if (!bench::read_counts(argc, argv, "HOT_LINES", passes, hot_lines)) return 2;
  Sides corpus;
  std::size_t hot_end = 0;  // the sides of the first hot_lines lines
  try {
    corpus = read_sides(argv[1], hot_lines, hot_end);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: cannot open %s: %s\n", argv[0], argv[1], e.what());
    return 1;
  }
  if (corpus.size() == 0) {
    std::fprintf(stderr, "%s: no good line in %s\n", argv[0], argv[1]);
    return 1;
  }
  Sides hot;  // empty if the first lines' sides are (the loop would never end)
  if (corpus.starts[hot_end] > 0)
    for (std::size_t i = 0; hot.text.size() < corpus.text.size(); i = (i + 1) % hot_end) hot.add(corpus[i]);
  std::printf("{\"bench\": \"intern\", \"sides\": %zu, \"hot_lines\": %zu, ", corpus.size(), hot_lines);
  print("corpus", time_interning(corpus, passes));
  std::printf(", ");
  print("hot", time_interning(hot, passes));
  std::printf("}\n");
}
