// TD-CONE_REL by hand (SPEC §4): KL_pq, KL_pu and their ratio on tiny corpora.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>

#include "tiny_corpus.hpp"

namespace tdcone {
namespace {

using RelativeEntropy = test_support::TinyCorpus;  // add() = Q, add_reference() = P

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
