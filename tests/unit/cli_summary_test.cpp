// What a command prints when it is done (cli/summary.hpp): the summary's
// lines and figures, the vectors' shares rounded down, the duplicates, and
// the /labels and /lengths tables with their column widths and bucket names.
#include "tdcone/cli/summary.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

namespace tdcone::cli {
namespace {

// A subset of `n` pairs, its BLEU and unigram precision both `hits` of 4 n-grams an order.
entropy::SubsetScore subset(std::uint64_t n, double tdcone, std::uint64_t hits = 2) {
  entropy::SubsetScore s;
  s.n_pairs = n;
  s.tdcone = tdcone;
  s.cond_entropy = tdcone * 2;
  s.tdcone_rel = tdcone / 2;
  s.diversity.matches = {hits, hits, hits, hits};
  s.diversity.ngrams = {4, 4, 4, 4};
  return s;
}

// The spec's worked example (docs/spec.md §3) as a run's figures.
jobs::JobScores worked_example() {
  jobs::JobScores scores;
  entropy::SubsetScore corpus = subset(3, 0.2894924);
  corpus.output_types = 4;
  corpus.nnz = 7;
  corpus.cond_entropy = 0.46592;
  corpus.kl_pq = 0.25;
  corpus.kl_pu = 0.5;
  corpus.tdcone_rel = 0.125;
  scores.subsets = {corpus};
  scores.input_types = 3;
  scores.phases = {{"read", 0.25}, {"align", 1.0}};
  scores.memory_budget = std::uint64_t{2} << 30;
  scores.memory_rule = "80% of the node's memory";
  return scores;
}

std::string summary_of(const jobs::JobScores& scores, bool with_reference) {
  const boost::mpi::communicator self(MPI_COMM_SELF, boost::mpi::comm_attach);
  ::testing::internal::CaptureStdout();
  print_summary(self, "score", "out.h5", results::LineCounts{4, 3, 1}, scores, with_reference, 1.5);
  return ::testing::internal::GetCapturedStdout();
}

// The summary up to its last line, which holds the peak memory (this process's, whatever it is).
std::string before_peak_memory(const std::string& summary) { return summary.substr(0, summary.find("  peak memory")); }
std::string peak_memory_line(const std::string& summary) {
  const auto at = summary.find("  peak memory");
  return at == std::string::npos ? "" : summary.substr(at);
}

TEST(Summary, TellsTheLinesScoresAndTimesOfTheRun) {
  const std::string printed = summary_of(worked_example(), false);
  EXPECT_EQ(before_peak_memory(printed),
            "tdcone score: out.h5\n"
            "  lines        4 (scored 3, flagged 1)\n"
            "  |V_x|        3\n"
            "  |V_y|        4\n"
            "  nnz(M)       7\n"
            "  H(Y|X)       0.4659200 nats\n"
            "  TD-CONE      0.2894924\n"
            "  BLEU         0.5000000 (unigram precision 0.5000000; output against input, no brevity penalty)\n"
            "  ranks        1, 1.50 s: read 0.25 align 1.00\n");
}

TEST(Summary, NamesThePeakMemoryOfEachRankAndTheBudgetWithItsRule) {
  const std::string line = peak_memory_line(summary_of(worked_example(), false));
  EXPECT_EQ(line.rfind("  peak memory  ", 0), 0u) << line;  // one rank: one figure
  EXPECT_EQ(line.find(", "), std::string::npos) << line;
  const std::string end = " per rank (--memory 2.00 GiB: 80% of the node's memory)\n";
  ASSERT_GE(line.size(), end.size());
  EXPECT_EQ(line.substr(line.size() - end.size()), end);

  jobs::JobScores given = worked_example();
  given.memory_rule.clear();  // --memory given: no rule
  given.memory_budget = 512 << 20;
  const std::string plain = peak_memory_line(summary_of(given, false));
  const std::string plain_end = " per rank (--memory 512 MiB)\n";
  ASSERT_GE(plain.size(), plain_end.size());
  EXPECT_EQ(plain.substr(plain.size() - plain_end.size()), plain_end);
}

TEST(Summary, AReferenceAddsTdconeRelAndItsDivergences) {
  const std::string printed = summary_of(worked_example(), true);
  EXPECT_NE(printed.find("  TD-CONE      0.2894924\n"
                         "  TD-CONE_REL  0.1250000 (KL_pq 0.2500000, KL_pu 0.5000000)\n"
                         "  BLEU  "),
            std::string::npos)
      << printed;
  EXPECT_EQ(summary_of(worked_example(), false).find("TD-CONE_REL"), std::string::npos);
}

TEST(Summary, VectorSharesAreRoundedDownSoNoneLooksComplete) {
  jobs::JobScores scores = worked_example();
  engine::EmbeddingCoverage coverage;
  coverage.file = "vectors.txt";
  coverage.input_types = 3, coverage.input_types_with_vector = 2;  // 66.67 %: 66.6
  coverage.output_types = 0;                                        // none: no share
  coverage.spread_words = 2000, coverage.spread_by_vectors = 1999;  // 99.95 %: 99.9, not 100.0
  scores.embedding_coverage = coverage;
  const std::string printed = summary_of(scores, false);
  EXPECT_NE(printed.find("  BLEU         0.5000000 (unigram precision 0.5000000; output against input, no brevity "
                         "penalty)\n"
                         "  vectors      2 of 3 input types (66.6 %), 0 output types have a vector in vectors.txt\n"
                         "  by vectors   1999 of 2000 x\\y words (99.9 %) spread over y\\x by cosines, the rest evenly\n"
                         "  ranks  "),
            std::string::npos)
      << printed;
}

TEST(Summary, DuplicatesAndThoseInTheReference) {
  ::testing::internal::CaptureStdout();
  print_duplicates({5, 2, false});
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "  duplicates   5 (flagged 32, dup_of: the first copy)\n");
  ::testing::internal::CaptureStdout();
  print_duplicates({5, 2, true});
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "  duplicates   5 (flagged 32, dup_of: the first copy)\n"
            "  in reference 2 (flagged 64: the key of a reference pair)\n");
}

TEST(NameWidth, IsTheLongestNameOrTheHeader) {
  EXPECT_EQ(name_width({}, "label"), 5);
  EXPECT_EQ(name_width({"a", "bc"}, "label"), 5);
  EXPECT_EQ(name_width({"a", "formal|calm"}, "label"), 11);
}

TEST(LabelTable, ARowPerCombinationFromTheFirstLabelSubset) {
  // Subset 0 is the corpus: the label subsets start at 1.
  const std::vector<entropy::SubsetScore> subsets = {subset(9, 0.9), subset(2, 0.25, 4), subset(1, 0.5, 0)};
  ::testing::internal::CaptureStdout();
  print_label_table({"formal|calm", "x"}, subsets, 1, false);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "  label          n_pairs     tdcone     H(Y|X)       bleu\n"
            "  formal|calm          2  0.2500000  0.5000000  1.0000000\n"
            "  x                    1  0.5000000  1.0000000  0.0000000\n");
  ::testing::internal::CaptureStdout();
  print_label_table({"x"}, subsets, 2, true);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "  label    n_pairs     tdcone     H(Y|X)       bleu  tdcone_rel\n"
            "  x              1  0.5000000  1.0000000  0.0000000   0.2500000\n");
}

TEST(LengthTable, BucketsAreNamedByTheirBoundsWithTheOverflowLast) {
  const std::vector<entropy::SubsetScore> subsets = {subset(9, 0.9), subset(3, 0.25), subset(2, 0.5, 4),
                                                     subset(1, 0.75, 0)};
  ::testing::internal::CaptureStdout();
  print_length_table({5, 10}, subsets, 1, false);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "  src tokens      n_pairs     tdcone       bleu  unigram_p\n"
            "  <= 5                  3  0.2500000  0.5000000  0.5000000\n"
            "  6-10                  2  0.5000000  1.0000000  1.0000000\n"
            "  > 10                  1  0.7500000  0.0000000  0.0000000\n");
  ::testing::internal::CaptureStdout();
  print_length_table({}, subsets, 3, true);  // no bound: one bucket of every length
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "  src tokens      n_pairs     tdcone       bleu  unigram_p  tdcone_rel\n"
            "  > 0                   1  0.7500000  0.0000000  0.0000000   0.3750000\n");
}

}  // namespace
}  // namespace tdcone::cli
