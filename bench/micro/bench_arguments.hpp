#pragma once
// The command line the one-stage benchmarks share: CORPUS.tsv [PASSES] [SECOND],
// SECOND a count of their own (SHARES, HOT_LINES).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace bench {

// PASSES (at least 1) and SECOND from argv where given, else left as they
// are; false, after a usage error on stderr, if either is not a whole number.
template <class Second>
bool read_counts(int argc, char** argv, const char* second_name, int& passes, Second& second) {
  const auto number = [&](int i, auto& value) {
    if (i >= argc) return true;
    const char* end = argv[i] + std::strlen(argv[i]);
    const auto [at, error] = std::from_chars(argv[i], end, value);
    return error == std::errc{} && at == end;
  };
  if (argc >= 2 && number(2, passes) && number(3, second)) {
    passes = std::max(1, passes);
    return true;
  }
  if (argc < 2)
    std::fprintf(stderr, "usage: %s CORPUS.tsv [PASSES] [%s]\n", argv[0], second_name);
  else
    std::fprintf(stderr, "%s: PASSES and %s are numbers (usage: %s CORPUS.tsv [PASSES] [%s])\n", argv[0], second_name,
                 argv[0], second_name);
  return false;
}

}  // namespace bench
