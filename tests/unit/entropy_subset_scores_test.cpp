// The scores of the corpus and of its subsets (entropy/subset_scores.hpp) by
// hand on tiny corpora: H(Y|X) and TD-CONE (docs/spec.md §3) of subsets whose cells
// come from one group or several, and TD-CONE_REL (docs/spec.md §4): KL_pq, KL_pu
// and their ratio.
#include "tdcone/entropy/subset_scores.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "tiny_corpus.hpp"

namespace tdcone {
namespace {

using RelativeEntropy = test_support::TinyCorpus;  // add() = Q, add_reference() = P
using Corpus = test_support::TinyCorpus;
using entropy::kNoGroup;
using entropy::PairGroups;

const double kLn2 = std::log(2.0), kLn3 = std::log(3.0), kLn4 = std::log(4.0);

PairGroups groups_of(std::vector<std::uint32_t> group_of_pair, std::vector<std::vector<std::uint32_t>> subsets_of_group,
                     std::size_t subset_count) {
  PairGroups groups;
  groups.group_of_pair = std::move(group_of_pair);
  groups.subsets_of_group = std::move(subsets_of_group);
  groups.subset_count = subset_count;
  return groups;
}

// H(Y|X) = Σ_x Σ_y M[x][y]/T · ln(R(x)/M[x][y]); TD-CONE = H / ln(|V_y| + 1).
TEST(SubsetScores, TwoPairsByHand) {
  Corpus c;
  c.add("a", "b");  // a>b 1/2, a>NULL 1/2
  c.add("a", "c");  // a>c 1/2, a>NULL 1/2
  // Row a: b 1/2, c 1/2, NULL 1; R = T = 2: H = (2 · 1/2 · ln 4 + ln 2) / 2.
  const entropy::SubsetScore s = c.score();
  EXPECT_EQ(s.n_pairs, 2u);
  EXPECT_EQ(s.nnz, 3u);
  EXPECT_EQ(s.output_types, 2u);
  EXPECT_DOUBLE_EQ(s.total, 2.0);
  EXPECT_NEAR(s.cond_entropy, 1.5 * kLn2, 1e-15);
  EXPECT_NEAR(s.tdcone, 1.5 * kLn2 / kLn3, 1e-15);
  EXPECT_TRUE(std::isnan(s.kl_pq));  // no reference
  EXPECT_TRUE(std::isnan(s.tdcone_rel));
}

// Shards: disjoint subsets 1 and 2 of the corpus, subset 0. The corpus's
// NULL column of row a has cells of both groups.
TEST(SubsetScores, ShardsAreScoredAsIfAlone) {
  Corpus c;
  c.add("a", "b");      // shard 0: a>b 1/2, a>NULL 1/2
  c.add("a", "c");      // shard 1: a>c 1/2, a>NULL 1/2
  c.add("a b", "a b");  // shard 1: a>a 1, b>b 1
  c.add("b", "c");      // a bad line, in no group
  c.set_groups(groups_of({0, 1, 1, kNoGroup}, {{0, 1}, {0, 2}}, 3));
  std::uint64_t rows = 0;
  const ProgressCallback progress([](std::uint64_t, double) {}, [&](std::uint64_t done) { rows = done; });
  const auto s = c.scores(0.1, progress);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(rows, 2u);  // rows a and b

  // The corpus: row a: b 1/2, c 1/2, NULL 1, a 1 (R = 3); row b: b 1. T = 4.
  EXPECT_EQ(s[0].n_pairs, 3u);
  EXPECT_EQ(s[0].nnz, 5u);
  EXPECT_EQ(s[0].output_types, 3u);
  EXPECT_DOUBLE_EQ(s[0].total, 4.0);
  const double h0 = (std::log(6.0) + 2 * kLn3) / 4;
  EXPECT_NEAR(s[0].cond_entropy, h0, 1e-15);
  EXPECT_NEAR(s[0].tdcone, h0 / kLn4, 1e-15);
  // Shard 0: row a: b 1/2, NULL 1/2. T = 1, |V_y| = 1.
  EXPECT_EQ(s[1].n_pairs, 1u);
  EXPECT_EQ(s[1].nnz, 2u);
  EXPECT_EQ(s[1].output_types, 1u);
  EXPECT_DOUBLE_EQ(s[1].total, 1.0);
  EXPECT_NEAR(s[1].cond_entropy, kLn2, 1e-15);
  EXPECT_NEAR(s[1].tdcone, 1.0, 1e-15);
  // Shard 1: row a: c 1/2, NULL 1/2, a 1 (R = 2); row b: b 1. T = 3, |V_y| = 3.
  EXPECT_EQ(s[2].n_pairs, 2u);
  EXPECT_EQ(s[2].nnz, 4u);
  EXPECT_EQ(s[2].output_types, 3u);
  EXPECT_DOUBLE_EQ(s[2].total, 3.0);
  EXPECT_NEAR(s[2].cond_entropy, kLn2, 1e-15);
  EXPECT_NEAR(s[2].tdcone, 0.5, 1e-15);
}

// Threshold subsets are nested: group 2's pairs are in subsets 1 and 2,
// group 1's in subset 1, so subset 1's cells sum two groups.
TEST(SubsetScores, NestedSubsetsSumTheirGroupsCells) {
  Corpus c;
  c.add("a", "b");  // group 0: the corpus only
  c.add("a", "b");  // group 1: subsets 0, 1
  c.add("a", "c");  // group 2: subsets 0, 1, 2
  c.set_groups(groups_of({0, 1, 2}, {{0}, {0, 1}, {0, 1, 2}}, 3));
  const auto s = c.scores();
  // All: row a: b 1, c 1/2, NULL 3/2; R = T = 3, |V_y| = 2.
  const double h0 = (kLn3 + 0.5 * std::log(6.0) + 1.5 * kLn2) / 3;
  EXPECT_NEAR(s[0].cond_entropy, h0, 1e-15);
  EXPECT_NEAR(s[0].tdcone, h0 / kLn3, 1e-15);
  EXPECT_EQ(s[0].nnz, 3u);
  // Subset 1 (pairs 1, 2): row a: b 1/2, c 1/2, NULL 1, as TwoPairsByHand.
  EXPECT_EQ(s[1].n_pairs, 2u);
  EXPECT_EQ(s[1].nnz, 3u);
  EXPECT_DOUBLE_EQ(s[1].total, 2.0);
  EXPECT_NEAR(s[1].cond_entropy, 1.5 * kLn2, 1e-15);
  EXPECT_NEAR(s[1].tdcone, 1.5 * kLn2 / kLn3, 1e-15);
  // Subset 2 (pair 2): row a: c 1/2, NULL 1/2.
  EXPECT_EQ(s[2].n_pairs, 1u);
  EXPECT_EQ(s[2].output_types, 1u);
  EXPECT_NEAR(s[2].cond_entropy, kLn2, 1e-15);
  EXPECT_NEAR(s[2].tdcone, 1.0, 1e-15);
}

// A subset without pairs has no score (docs/spec.md §9): NaN, not 0.
TEST(SubsetScores, ASubsetWithoutPairsIsNaN) {
  Corpus c;
  c.add("a", "b");
  c.add("a", "c");
  c.add_reference("a", "b");
  c.set_groups(groups_of({0, 0}, {{0, 1}, {0, 2}}, 3));  // group 1 (subset 2) has no pair
  const auto s = c.scores();
  EXPECT_EQ(s[1].n_pairs, 2u);
  EXPECT_NEAR(s[1].tdcone, 1.5 * kLn2 / kLn3, 1e-15);
  EXPECT_EQ(s[2].n_pairs, 0u);
  EXPECT_EQ(s[2].nnz, 0u);
  EXPECT_EQ(s[2].total, 0.0);
  for (double value : {s[2].cond_entropy, s[2].tdcone, s[2].kl_pq, s[2].kl_pu, s[2].tdcone_rel})
    EXPECT_TRUE(std::isnan(value)) << value;
}

// One pair whose words are all shared: every cell alone in its row, H = 0.
TEST(SubsetScores, ACopyHasNoEntropy) {
  Corpus c;
  c.add("a b", "b a");
  const entropy::SubsetScore s = c.score();
  EXPECT_EQ(s.nnz, 2u);
  EXPECT_EQ(s.cond_entropy, 0.0);
  EXPECT_EQ(s.tdcone, 0.0);
}

// TD-CONE_REL of each subset against its own Q (λ = 0.1, U over the
// union of the reference's and the subset's output words).
TEST(SubsetScores, RelativeEntropyOfEachSubset) {
  Corpus c;
  c.add("a", "b");      // shard 0
  c.add("a", "c");      // shard 1
  c.add("a b", "a b");  // shard 1
  c.add_reference("a", "b");  // P row a: b 1/2, NULL 1/2
  c.set_groups(groups_of({0, 1, 1}, {{0, 1}, {0, 2}}, 3));
  const auto s = c.scores(0.1);
  // All: V = {a, b, c}, U = 1/4; Q row a: b 1/6, NULL 1/3.
  EXPECT_NEAR(s[0].kl_pq, 0.5 * std::log(0.5 / (0.9 / 6 + 0.025)) + 0.5 * std::log(0.5 / (0.9 / 3 + 0.025)), 1e-12);
  EXPECT_NEAR(s[0].kl_pu, kLn2, 1e-12);
  EXPECT_NEAR(s[0].tdcone_rel, s[0].kl_pq / kLn2, 1e-12);
  // Shard 0 is the reference: Q = P = U (V = {b}): nothing to explain, 0.
  EXPECT_NEAR(s[1].kl_pq, 0.0, 1e-15);
  EXPECT_NEAR(s[1].kl_pu, 0.0, 1e-15);
  EXPECT_EQ(s[1].tdcone_rel, 0.0);
  // Shard 1: V = {a, b, c}; Q row a: c 1/4, NULL 1/4, a 1/2, no b: only λ·U.
  const double pq = 0.5 * std::log(0.5 / 0.025) + 0.5 * std::log(0.5 / (0.9 / 4 + 0.025));
  EXPECT_NEAR(s[2].kl_pq, pq, 1e-12);
  EXPECT_NEAR(s[2].kl_pu, kLn2, 1e-12);
  EXPECT_NEAR(s[2].tdcone_rel, pq / kLn2, 1e-12);
}

TEST(RelativeEntropyTest, WorkedExampleOfTheSpec) {
  RelativeEntropy r;
  r.add("a b c", "a d");
  r.add("a b", "a b e");
  r.add("a b", "a");
  r.add_reference("a b c", "a d");
  // |V| + 1 = 5; the a>a cell has Q = 1, Q_λ = 0.92; the four 1/6 cells
  // have P(y|x) = 1/2 and Q_λ = 0.17 (b>d) or 0.47 (b>NULL, c>d, c>NULL).
  const double kl_pq = std::log(1 / 0.92) / 3 + (std::log(0.5 / 0.17) + 3 * std::log(0.5 / 0.47)) / 6;
  const double kl_pu = std::log(5.0) / 3 + 4 * std::log(2.5) / 6;
  const auto s = r.score(0.1);
  EXPECT_NEAR(s.kl_pq, kl_pq, 1e-12);
  EXPECT_NEAR(s.kl_pu, kl_pu, 1e-12);
  EXPECT_NEAR(s.tdcone_rel, 0.2079011, 5e-8);
}

TEST(RelativeEntropyTest, RowMissingFromQIsUniform) {
  RelativeEntropy r;
  r.add("a", "a");
  r.add_reference("z", "z");  // no row z in Q: Q_λ = 1/(|V|+1) = 1/3 with V = {a, z}
  const auto s = r.score(0.1);
  EXPECT_NEAR(s.kl_pq, std::log(3.0), 1e-12);
  EXPECT_NEAR(s.kl_pu, std::log(3.0), 1e-12);
  EXPECT_NEAR(s.tdcone_rel, 1.0, 1e-12);
}

TEST(RelativeEntropyTest, CellMissingFromQGetsOnlySmoothingMassAndRatioIsNotClipped) {
  RelativeEntropy r;
  r.add("a", "a");
  r.add_reference("a", "b");  // P: a>b 1/2, a>NULL 1/2; Q row a has neither: Q_λ = λ/3
  const auto s = r.score(0.1);
  EXPECT_NEAR(s.kl_pq, std::log(0.5 / (0.1 / 3)), 1e-12);
  EXPECT_NEAR(s.kl_pu, std::log(1.5), 1e-12);
  EXPECT_GT(s.tdcone_rel, 1.0);
  EXPECT_NEAR(s.tdcone_rel, std::log(15.0) / std::log(1.5), 1e-12);
}

TEST(RelativeEntropyTest, LambdaZeroWithFullSupport) {
  RelativeEntropy r;
  r.add("a", "b");  // Q row a: b 1/2, NULL 1/2, a 1 -> Q(b|a) = Q(NULL|a) = 1/4
  r.add("a", "a");
  r.add_reference("a", "b");
  const auto s = r.score(0.0);
  EXPECT_NEAR(s.kl_pq, std::log(2.0), 1e-12);
  EXPECT_NEAR(s.kl_pu, std::log(1.5), 1e-12);
  EXPECT_NEAR(s.tdcone_rel, std::log(2.0) / std::log(1.5), 1e-12);
}

TEST(RelativeEntropyTest, IdenticalPAndQHaveNoDivergenceAtLambdaZero) {
  RelativeEntropy r;
  for (auto [x, y] : {std::pair{"a b c", "a d"}, {"a b", "a b e"}, {"a b", "a"}}) {
    r.add(x, y);
    r.add_reference(x, y);
  }
  const auto s = r.score(0.0);
  EXPECT_NEAR(s.kl_pq, 0.0, 1e-15);
  EXPECT_GT(s.kl_pu, 0.0);
  EXPECT_NEAR(s.tdcone_rel, 0.0, 1e-15);
}

TEST(RelativeEntropyTest, VocabularyIsTheUnionOfBothOutputSides) {
  RelativeEntropy r;
  r.add("a", "c d");   // Q row a: c, d, NULL at 1/3 each
  r.add_reference("a", "b");  // P row a: b, NULL at 1/2; V = {b, c, d}: |V| + 1 = 4
  const auto s = r.score(0.1);
  const double q_b = 0.1 / 4, q_null = 0.9 / 3 + 0.1 / 4;
  EXPECT_NEAR(s.kl_pq, 0.5 * std::log(0.5 / q_b) + 0.5 * std::log(0.5 / q_null), 1e-12);
  EXPECT_NEAR(s.kl_pu, std::log(2.0), 1e-12);
}

}  // namespace
}  // namespace tdcone
