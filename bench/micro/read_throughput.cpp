// The read path of one rank, without MPI (bench/read.sh runs it): the lines
// of a TSV corpus (src, tgt, score, id) read, parsed, tokenized and interned
// into a TokenizedShare, as `tdcone score --score-col 3 --id-col 4` reads
// them on one rank. Prints one JSON object: the best of a few passes.
//
// With SHARES > 1, as many processes read the shares of that many ranks at
// once (io::plan_share), each the best of its passes, with its CPU seconds
// (user, system) beside its wall seconds: a share whose wall time is well
// above its CPU time waited for a core (another job on the machine), one
// whose CPU time is above its part of the one-share run paid for sharing the
// caches and memory.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tdcone/cli/option_names.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/text/share_builder.hpp"
#include "bench_arguments.hpp"
#include "bench_corpus.hpp"

using namespace tdcone;

namespace {

double cpu_seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); }

struct Pass {
  double seconds = 1e30, user = 0, system = 0;
  // side_types: each side's distinct words, summed (the share's type entries);
  // vocabulary: the distinct words of the share, NULL not counted.
  std::size_t lines = 0, side_types = 0, vocabulary = 0;
};

// The best of `passes` reads of the share of rank `rank` of `ranks`.
Pass read_share(const std::vector<io::InputFile>& files, int rank, int ranks, int passes) {
  const text::ReadOptions options = bench::corpus_read_options();
  Pass best;
  for (int pass = 0; pass < passes; ++pass) {
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    text::TokenizedShare share;
    text::Vocabulary vocabulary;
    text::ShareBuilder builder(share, options, vocabulary);
    const std::vector<io::Segment> segments = io::plan_share(files, rank, ranks);
    for (const io::Segment& segment : segments) builder.expect_bytes(io::segment_bytes(files[segment.file], segment));
    for (const io::Segment& segment : segments) {
      io::LineReader reader(files[segment.file], segment, options.max_line_bytes);
      for (io::Line line; reader.next(line);) builder.add(line);
    }
    builder.finish();
    share.shrink_to_fit();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    getrusage(RUSAGE_SELF, &after);
    if (seconds < best.seconds)
      best = {seconds, cpu_seconds(after.ru_utime) - cpu_seconds(before.ru_utime),
              cpu_seconds(after.ru_stime) - cpu_seconds(before.ru_stime), share.size(), share.types.size(),
              vocabulary.size() - 1};
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  cli::install_option_names();  // a bad line's reason names an option, as tdcone's do
  int passes = 3, shares = 1;
  if (!bench::read_counts(argc, argv, "SHARES", passes, shares)) return 2;
  shares = std::max(1, shares);
  std::vector<io::InputFile> files;
  try {
    files = io::resolve_inputs({argv[1]});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: cannot open %s: %s\n", argv[0], argv[1], e.what());
    return 1;
  }
  std::uint64_t bytes = 0;
  for (const io::InputFile& file : files) bytes += file.size;
  if (shares == 1) {
    const Pass p = read_share(files, 0, 1, passes);
    if (p.lines == 0) {  // no time per line to print
      std::fprintf(stderr, "%s: no line in %s\n", argv[0], argv[1]);
      return 1;
    }
    std::printf("{\"bench\": \"read\", \"lines\": %zu, \"side_types\": %zu, \"vocabulary\": %zu, \"seconds\": %.3f, "
                "\"user_seconds\": %.3f, \"system_seconds\": %.3f, \"ns_per_line\": %.1f, \"mb_per_s\": %.1f}\n",
                p.lines, p.side_types, p.vocabulary, p.seconds, p.user, p.system, p.seconds * 1e9 / p.lines, bytes / p.seconds / 1e6);
    return 0;
  }
  // One child a share, each printing its own line through a pipe, collected in share order.
  std::vector<int> pipes(shares);
  std::vector<pid_t> children(shares);
  for (int rank = 0; rank < shares; ++rank) {
    int fds[2];
    if (pipe(fds) != 0) return 1;
    children[rank] = fork();
    if (children[rank] == 0) {
      close(fds[0]);
      const Pass p = read_share(files, rank, shares, passes);
      const std::string json =
          "{\"share\": " + std::to_string(rank) + ", \"lines\": " + std::to_string(p.lines) +
          ", \"side_types\": " + std::to_string(p.side_types) + ", \"vocabulary\": " + std::to_string(p.vocabulary) +
          ", \"seconds\": " + std::to_string(p.seconds) + ", \"user_seconds\": " + std::to_string(p.user) +
          ", \"system_seconds\": " + std::to_string(p.system) + "}";
      const bool written = write(fds[1], json.data(), json.size()) == static_cast<ssize_t>(json.size());
      _exit(written ? 0 : 1);
    }
    close(fds[1]);
    pipes[rank] = fds[0];
  }
  std::printf("{\"bench\": \"read\", \"shares\": [");
  int failed = 0;
  for (int rank = 0; rank < shares; ++rank) {
    std::string json;
    char chunk[256];
    for (ssize_t n; (n = read(pipes[rank], chunk, sizeof chunk)) > 0;) json.append(chunk, static_cast<std::size_t>(n));
    close(pipes[rank]);
    int status = 0;
    waitpid(children[rank], &status, 0);
    failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    std::printf("%s%s", rank ? ", " : "", json.c_str());
  }
  std::printf("]}\n");
  return failed ? 1 : 0;
}
