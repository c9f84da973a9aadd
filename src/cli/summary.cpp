// What a command prints on standard output when it is done (rank 0).
#include "tdcone/cli/summary.hpp"

#include <boost/mpi/collectives.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tdcone/core/error.hpp"
#include "tdcone/engine/memory_budget.hpp"

namespace tdcone::cli {

namespace {

// "19 of 20 input types (95.0 %)": the share rounded down, so no share under a half prints as 50.0 %.
std::string part_of(std::uint64_t part, std::uint64_t whole, const char* what) {
  if (whole == 0) return cat("0 ", what);
  char share[32];
  std::snprintf(share, sizeof share, "%.1f", std::floor(1000.0 * static_cast<double>(part) / static_cast<double>(whole)) / 10);
  return cat(part, " of ", whole, " ", what, " (", share, " %)");
}

// How much the vectors of a static run decided (engine/embedding_coverage.hpp).
void print_coverage(const engine::EmbeddingCoverage& c) {
  std::printf("  vectors      %s, %s have a vector in %s\n",
              part_of(c.input_types_with_vector, c.input_types, "input types").c_str(),
              part_of(c.output_types_with_vector, c.output_types, "output types").c_str(), c.file.c_str());
  std::printf("  by vectors   %s spread over y\\x by cosines, the rest evenly\n",
              part_of(c.spread_by_vectors, c.spread_words, "x\\y words").c_str());
}

}  // namespace

int name_width(const std::vector<std::string>& names, const std::string& header) {
  std::size_t width = header.size();
  for (const auto& name : names) width = std::max(width, name.size());
  return static_cast<int>(width);
}

void print_summary(const boost::mpi::communicator& comm, const std::string& command, const std::string& output,
                   const results::LineCounts& counts, const jobs::JobScores& scores, bool with_reference, double seconds) {
  std::vector<std::uint64_t> peak;
  boost::mpi::gather(comm, engine::peak_rss_bytes(), peak, 0);
  if (comm.rank() != 0) return;
  const entropy::SubsetScore& corpus = scores.subsets[0];
  std::printf("tdcone %s: %s\n", command.c_str(), output.c_str());
  std::printf("  lines        %llu (scored %llu, flagged %llu)\n", (unsigned long long)counts.lines,
              (unsigned long long)counts.scored, (unsigned long long)counts.flagged);
  std::printf("  |V_x|        %llu\n  |V_y|        %llu\n  nnz(M)       %llu\n", (unsigned long long)scores.input_types,
              (unsigned long long)corpus.output_types, (unsigned long long)corpus.nnz);
  std::printf("  H(Y|X)       %.7f nats\n  TD-CONE      %.7f\n", corpus.cond_entropy, corpus.tdcone);
  if (with_reference)
    std::printf("  TD-CONE_REL  %.7f (KL_pq %.7f, KL_pu %.7f)\n", corpus.tdcone_rel, corpus.kl_pq, corpus.kl_pu);
  std::printf("  BLEU         %.7f (unigram precision %.7f; output against input, no brevity penalty)\n",
              corpus.diversity.bleu(), corpus.diversity.unigram_precision());
  if (scores.embedding_coverage) print_coverage(*scores.embedding_coverage);
  std::printf("  ranks        %d, %.2f s:", comm.size(), seconds);
  for (const auto& phase : scores.phases) std::printf(" %s %.2f", phase.name.c_str(), phase.seconds);
  std::printf("\n  peak memory ");
  for (std::size_t r = 0; r < peak.size(); ++r) std::printf("%s%s", r ? ", " : " ", engine::format_bytes(peak[r]).c_str());
  std::printf(" per rank (--memory %s%s%s)\n", engine::format_bytes(scores.memory_budget).c_str(),
              scores.memory_rule.empty() ? "" : ": ", scores.memory_rule.c_str());
}

void print_duplicates(const engine::DuplicateCounts& counts) {
  std::printf("  duplicates   %llu (flagged 32, dup_of: the first copy)\n", (unsigned long long)counts.duplicates);
  if (counts.with_reference)
    std::printf("  in reference %llu (flagged 64: the key of a reference pair)\n", (unsigned long long)counts.in_reference);
}

void print_label_table(const std::vector<std::string>& names, const std::vector<entropy::SubsetScore>& subsets,
                       std::size_t first, bool with_reference) {
  const int width = name_width(names, "label");
  std::printf("  %-*s %10s %10s %10s %10s%s\n", width, "label", "n_pairs", "tdcone", "H(Y|X)", "bleu",
              with_reference ? "  tdcone_rel" : "");
  for (std::size_t j = 0; j < names.size(); ++j) {
    const entropy::SubsetScore& s = subsets[first + j];
    std::printf("  %-*s %10llu %10.7f %10.7f %10.7f", width, names[j].c_str(), (unsigned long long)s.n_pairs, s.tdcone,
                s.cond_entropy, s.diversity.bleu());
    if (with_reference) std::printf("  %10.7f", s.tdcone_rel);
    std::printf("\n");
  }
}

std::string length_bucket_name(const std::vector<std::uint64_t>& bounds, std::size_t k) {
  return k == bounds.size() ? cat("> ", bounds.empty() ? 0 : bounds.back())
         : k == 0           ? cat("<= ", bounds[0])
                            : cat(bounds[k - 1] + 1, "-", bounds[k]);
}

void print_length_table(const std::vector<std::uint64_t>& bounds, const std::vector<entropy::SubsetScore>& subsets,
                        std::size_t first, bool with_reference) {
  std::printf("  %-12s %10s %10s %10s %10s%s\n", "src tokens", "n_pairs", "tdcone", "bleu", "unigram_p",
              with_reference ? "  tdcone_rel" : "");
  for (std::size_t k = 0; k <= bounds.size(); ++k) {
    const std::string range = length_bucket_name(bounds, k);
    const entropy::SubsetScore& s = subsets[first + k];
    std::printf("  %-12s %10llu %10.7f %10.7f %10.7f", range.c_str(), (unsigned long long)s.n_pairs, s.tdcone,
                s.diversity.bleu(), s.diversity.unigram_precision());
    if (with_reference) std::printf("  %10.7f", s.tdcone_rel);
    std::printf("\n");
  }
}

}  // namespace tdcone::cli
