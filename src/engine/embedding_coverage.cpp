#include "tdcone/engine/embedding_coverage.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/mpi/exchange.hpp"

namespace tdcone::engine {

namespace {

using mpi::WordMarks;

// Below this share a run is mostly uniform alignment under another name.
constexpr double kWarnBelow = 0.5;

double share(std::uint64_t part, std::uint64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : std::numeric_limits<double>::quiet_NaN();
}

// Percents to a tenth, rounded down: 49.96 % is "49.9 %", under the line it is warned under, and a
// share above 0 under a thousandth is "0.0 %".
double percent(double share) { return std::floor(1000 * share) / 10; }

// Words are looked up as the text was tokenized: the usual mismatches.
std::string case_hint() {
  return cat("is it cased and split like the text? (the text's case is folded unless ", Option::no_lowercase, "; ",
             Option::tokenizer, " punct splits punctuation off words)");
}

}  // namespace

double EmbeddingCoverage::input_share() const { return share(input_types_with_vector, input_types); }
double EmbeddingCoverage::output_share() const { return share(output_types_with_vector, output_types); }
double EmbeddingCoverage::mass_share() const { return share(spread_by_vectors, spread_words); }

EmbeddingCoverage count_vector_types(const boost::mpi::communicator& comm, const mpi::GlobalVocabulary& words,
                                     const std::string& file, std::uint64_t vectors_in_file, std::uint64_t dimension) {
  EmbeddingCoverage coverage;
  coverage.file = file;
  coverage.vectors_in_file = vectors_in_file;
  coverage.dimension = dimension;
  static constexpr unsigned side[4] = {WordMarks::corpus_input, WordMarks::corpus_input, WordMarks::corpus_output,
                                       WordMarks::corpus_output};
  const std::vector<std::uint64_t> counts = words.count(comm, 4, [](std::span<const std::uint64_t> marks, std::size_t k) {
    return WordMarks::test(marks, side[k]) && (k % 2 == 0 || WordMarks::test(marks, WordMarks::with_vector));
  });
  coverage.input_types = counts[0];
  coverage.input_types_with_vector = counts[1];
  coverage.output_types = counts[2];
  coverage.output_types_with_vector = counts[3];
  mpi::collective_step(comm, [&] {  // the counts are global: every rank refuses alike
    const bool no_input = coverage.input_types > 0 && coverage.input_types_with_vector == 0;
    const bool no_output = coverage.output_types > 0 && coverage.output_types_with_vector == 0;
    if (!no_input && !no_output) return;
    const std::string sides = no_input && no_output
                                  ? cat(coverage.input_types, " input and none of the ", coverage.output_types, " output")
                                  : no_input ? cat(coverage.input_types, " input") : cat(coverage.output_types, " output");
    throw UsageError(cat("none of the ", sides, " word types of the corpus has a vector in ", file, " (it holds ", vectors_in_file,
                         vectors_in_file == 1 ? " vector" : " vectors", " of ", dimension, " values): static alignment needs the vectors of both words, so "
                         "every word would be spread evenly, as without ", Option::embeddings, "; ", case_hint(),
                         " Or are they the vectors of another language?"));
  });
  if (comm.rank() == 0) {
    const double shares[2] = {coverage.input_share(), coverage.output_share()};
    const std::uint64_t with[2] = {coverage.input_types_with_vector, coverage.output_types_with_vector};
    const std::uint64_t all[2] = {coverage.input_types, coverage.output_types};
    for (int k = 0; k < 2; ++k)
      if (shares[k] < kWarnBelow)
        std::fprintf(stderr, "tdcone: warning: only %.1f %% of the %s word types (%llu of %llu) have a vector in %s: %s\n",
                     percent(shares[k]), k == 0 ? "input" : "output", (unsigned long long)with[k],
                     (unsigned long long)all[k], file.c_str(), case_hint().c_str());
  }
  return coverage;
}

void add_spread_words(const boost::mpi::communicator& comm, EmbeddingCoverage& coverage, std::uint64_t spread_words,
                      std::uint64_t spread_by_vectors) {
  const std::vector<std::uint64_t> sums = mpi::sum_all(comm, std::vector<std::uint64_t>{spread_words, spread_by_vectors});
  coverage.spread_words = sums[0];
  coverage.spread_by_vectors = sums[1];
  if (comm.rank() == 0 && coverage.mass_share() < kWarnBelow)
    std::fprintf(stderr, "tdcone: warning: only %.1f %% of the alignment mass static alignment spreads over y\\x (%llu of "
                 "%llu x\\y words) was spread by vectors; the rest went evenly, its word or a word of its y\\x having "
                 "no vector in %s\n", percent(coverage.mass_share()), (unsigned long long)coverage.spread_by_vectors,
                 (unsigned long long)coverage.spread_words, coverage.file.c_str());
}

}  // namespace tdcone::engine
