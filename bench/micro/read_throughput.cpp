// The read path of one rank, without MPI (bench/read.sh runs it): the lines
// of a TSV corpus (src, tgt, score, id) read, parsed, tokenized and interned
// into a TokenizedShare, as `tdcone score --score-col 3 --id-col 4` reads
// them on one rank. Prints one JSON object: the best of a few passes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/text/share_builder.hpp"

using namespace tdcone;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS.tsv [PASSES]\n", argv[0]);
    return 2;
  }
  const int passes = argc > 2 ? std::stoi(argv[2]) : 3;
  const std::vector<io::InputFile> files = io::resolve_inputs({argv[1]});
  text::ReadOptions options;
  options.fields.score_col = 3;
  options.fields.id_col = 4;
  double best = 1e30;
  std::size_t lines = 0, types = 0, words = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    text::TokenizedShare share;
    text::Vocabulary vocabulary;
    text::ShareBuilder builder(share, options, vocabulary);
    const std::vector<io::Segment> segments = io::plan_share(files, 0, 1);
    for (const io::Segment& segment : segments) builder.expect_bytes(io::segment_bytes(files[segment.file], segment));
    for (const io::Segment& segment : segments) {
      io::LineReader reader(files[segment.file], segment, options.max_line_bytes);
      for (io::Line line; reader.next(line);) builder.add(line);
    }
    builder.finish();
    share.shrink_to_fit();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    lines = share.size(), types = share.types.size(), words = vocabulary.size();
  }
  std::uint64_t bytes = 0;
  for (const io::InputFile& file : files) bytes += file.size;
  std::printf("{\"bench\": \"read\", \"lines\": %zu, \"types\": %zu, \"words\": %zu, \"seconds\": %.3f, "
              "\"ns_per_line\": %.1f, \"mb_per_s\": %.1f}\n",
              lines, types, words, best, best * 1e9 / lines, bytes / best / 1e6);
}
