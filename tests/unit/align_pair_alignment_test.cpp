// TD-CONE by hand (docs/spec.md §3): one test per alignment rule, plus the worked example.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>
#include <vector>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/core/exact_sum.hpp"
#include "tdcone/core/tdcone.hpp"
#include "tiny_corpus.hpp"

namespace tdcone {
namespace {

using align::AlignMode;
using text::WordId;

using Corpus = test_support::TinyCorpus;

const double kLn2 = std::log(2.0), kLn3 = std::log(3.0);

// The pairs' logarithms come from a table: bit for bit std::log's, on both sides of its end.
TEST(AlignTest, LogarithmsOfCountsAreStdLogs) {
  for (std::uint64_t n = 1; n < 2048; ++n) ASSERT_EQ(log_of_count(n), std::log(static_cast<double>(n))) << n;
  EXPECT_EQ(log_of_count(231993), std::log(231993.0));
}

TEST(AlignTest, WorkedExampleUniformMatrix) {
  Corpus c(AlignMode::uniform);
  c.add("a b c", "a d");
  c.add("a b", "a b e");
  c.add("a b", "a");
  const std::map<std::string, double> expected = {{"a>a", 3},    {"b>b", 1},    {"b>d", 0.5}, {"b>NULL", 1.5},
                                                  {"c>d", 0.5},  {"c>NULL", 0.5}, {"NULL>e", 1}};
  EXPECT_EQ(c.cells(), expected);
}

TEST(AlignTest, WorkedExampleCorpusAndPairValues) {
  Corpus uniform(AlignMode::uniform);
  EXPECT_NEAR(uniform.add("a b c", "a d"), 0.4206198, 5e-8);
  uniform.add("a b", "a b e");
  uniform.add("a b", "a");
  const auto u = uniform.score();
  EXPECT_EQ(u.output_types, 4u);
  EXPECT_DOUBLE_EQ(u.total, 8.0);
  EXPECT_NEAR(u.cond_entropy, 0.4659200, 5e-8);
  EXPECT_NEAR(u.tdcone, 0.2894924, 5e-8);
  EXPECT_EQ(u.nnz, 7u);

  Corpus by_embedding(AlignMode::embedding);  // no embedding file: uniform over y\x, no NULL
  EXPECT_DOUBLE_EQ(by_embedding.add("a b c", "a d"), 0.0);
  by_embedding.add("a b", "a b e");
  by_embedding.add("a b", "a");
  EXPECT_NEAR(by_embedding.score().tdcone, 0.2559773, 5e-8);
}

TEST(AlignTest, SharedWordsAlignToThemselves) {
  Corpus c(AlignMode::uniform);
  EXPECT_DOUBLE_EQ(c.add("a b", "b a"), 0.0);  // identical sets score 0
  EXPECT_EQ(c.cells(), (std::map<std::string, double>{{"a>a", 1}, {"b>b", 1}}));
}

TEST(AlignTest, OutputSubsetOfInputGoesToNull) {  // y ⊂ x: x\y nonempty, y\x empty
  for (auto mode : {AlignMode::uniform, AlignMode::embedding}) {
    Corpus c(mode);
    EXPECT_DOUBLE_EQ(c.add("a b c", "a"), 0.0);
    EXPECT_EQ(c.cells(), (std::map<std::string, double>{{"a>a", 1}, {"b>NULL", 1}, {"c>NULL", 1}}));
  }
}

TEST(AlignTest, InputSubsetOfOutputComesFromNull) {  // x ⊂ y: rule 3
  Corpus c(AlignMode::uniform);
  // T = 2, H = ln2 / 2 (the NULL row), |V_y| = 3: TD-CONE = (ln2/2)/ln4 = 1/4.
  EXPECT_DOUBLE_EQ(c.add("a", "a b c"), 0.25);
  EXPECT_EQ(c.cells(), (std::map<std::string, double>{{"a>a", 1}, {"NULL>b", 0.5}, {"NULL>c", 0.5}}));
}

TEST(AlignTest, EmptySides) {
  Corpus c(AlignMode::uniform);
  EXPECT_DOUBLE_EQ(c.add("", "a b"), kLn2 / kLn3);  // NULL row {a: 1/2, b: 1/2}, |V_y| = 2
  EXPECT_DOUBLE_EQ(c.add("a b", ""), 0.0);          // no output types at all
  EXPECT_DOUBLE_EQ(c.add("", ""), 0.0);
  EXPECT_EQ(c.cells(), (std::map<std::string, double>{{"NULL>a", 0.5}, {"NULL>b", 0.5}, {"a>NULL", 1}, {"b>NULL", 1}}));
}

TEST(AlignTest, RepeatedWordsCountOnce) {
  Corpus c(AlignMode::uniform);
  // Sets {a,b} -> {b,c}: b>b 1, a>c 1/2, a>NULL 1/2; H = ln2/2, |V_y| = 2.
  EXPECT_DOUBLE_EQ(c.add("a a b", "b b c"), (kLn2 / 2) / kLn3);
  EXPECT_EQ(c.cells(), (std::map<std::string, double>{{"b>b", 1}, {"a>c", 0.5}, {"a>NULL", 0.5}}));
}

TEST(AlignTest, UniformSpreadsOverOutputOnlyWordsAndNull) {
  Corpus c(AlignMode::uniform);
  // b and c each spread 1 over {d, e, NULL}: 6 cells of 1/3; H = 2 ln3 / 3 (T = 3 with a>a).
  EXPECT_DOUBLE_EQ(c.add("a b c", "a d e"), (2 * kLn3 / 3) / std::log(4.0));
}

TEST(AlignTest, StaticUsesCosineSimilarity) {
  align::EmbeddingTable embeddings;
  Corpus c(AlignMode::embedding, &embeddings);
  const auto a = c.vocabulary.intern("a"), b = c.vocabulary.intern("b"), d = c.vocabulary.intern("d");
  embeddings.set(a, {1, 0});
  embeddings.set(b, {1, 0});   // cos(a,b) = 1
  embeddings.set(d, {1, 1});   // cos(a,d) = 1/√2
  const double p = 1 / (1 + 1 / std::sqrt(2.0)), q = 1 - p;
  EXPECT_NEAR(c.add("a", "b d"), -(p * std::log(p) + q * std::log(q)) / kLn3, 1e-12);
  EXPECT_NEAR(c.cells()["a>b"], p, 1e-12);
  EXPECT_NEAR(c.cells()["a>d"], q, 1e-12);
}

TEST(AlignTest, StaticClampsNegativeCosine) {
  align::EmbeddingTable embeddings;
  Corpus c(AlignMode::embedding, &embeddings);
  const auto a = c.vocabulary.intern("a"), b = c.vocabulary.intern("b"), d = c.vocabulary.intern("d");
  embeddings.set(a, {1, 0});
  embeddings.set(b, {1, 0});
  embeddings.set(d, {-1, 0});  // cos = -1 -> s = 1e-6
  c.add("a", "b d");
  EXPECT_NEAR(c.cells()["a>d"], 1e-6 / (1 + 1e-6), 1e-18);
}

TEST(AlignTest, StaticFallsBackToUniformWhenAWordHasNoVector) {
  align::EmbeddingTable embeddings;
  Corpus c(AlignMode::embedding, &embeddings);
  const auto a = c.vocabulary.intern("a"), b = c.vocabulary.intern("b");
  embeddings.set(a, {1, 0});
  embeddings.set(b, {1, 0});  // "d" has none
  EXPECT_DOUBLE_EQ(c.add("a", "b d"), kLn2 / kLn3);
  EXPECT_DOUBLE_EQ(c.cells()["a>b"], 0.5);
}

// H / ln(|V_y| + 1) of a pair is 1 in exact arithmetic when its three input
// words spread over all five output words and NULL; in doubles, (3 ln 6) / 3
// is one ulp above ln 6. The pair's value is clamped to 1.
TEST(AlignTest, PairTdconeRoundedAboveOneIsOne) {
  Corpus c(AlignMode::uniform);
  const double h = 3 * std::log(6.0) / 3;
  ASSERT_GT(h / std::log(6.0), 1.0) << "the rounding this test is about";
  EXPECT_EQ(c.add("a b c", "d e f g h"), 1.0);
}

// A similarity at its floor (1e-6) truncated to the exact sum's 2^-64 steps:
// the one share is a little above 1, and -p ln p a little below 0. Clamped to 0.
TEST(AlignTest, PairTdconeRoundedBelowZeroIsZero) {
  align::EmbeddingTable embeddings;
  Corpus c(AlignMode::embedding, &embeddings);
  embeddings.set(c.vocabulary.intern("a"), {1, 0});
  embeddings.set(c.vocabulary.intern("d"), {-1, 0});
  ExactSum floor;
  floor.add(1e-6);
  ASSERT_GT(1e-6 / floor.value(), 1.0) << "the rounding this test is about";
  EXPECT_EQ(c.add("a", "d"), 0.0);
}

// Random pairs under both modes: every pair's TD-CONE in [0, 1].
TEST(AlignTest, PairTdconeLiesInZeroToOne) {
  std::mt19937 random(11);
  align::EmbeddingTable embeddings;
  Corpus uniform(AlignMode::uniform), by_embedding(AlignMode::embedding, &embeddings);
  std::normal_distribution<float> coordinate(0, 1);
  for (int w = 0; w < 30; ++w) {
    const std::string word = "w" + std::to_string(w);
    uniform.vocabulary.intern(word);
    embeddings.set(by_embedding.vocabulary.intern(word), {coordinate(random), coordinate(random)});
  }
  std::uniform_int_distribution<int> word(0, 29), length(0, 12);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string x, y;
    for (int k = length(random); k > 0; --k) x += " w" + std::to_string(word(random));
    for (int k = length(random) + 1; k > 0; --k) y += " w" + std::to_string(word(random));
    for (Corpus* corpus : {&uniform, &by_embedding}) {
      const double tdcone = corpus->add(x, y);
      ASSERT_GE(tdcone, 0.0) << x << " ->" << y;
      ASSERT_LE(tdcone, 1.0) << x << " ->" << y;
    }
  }
}

TEST(AlignTest, DirectionMatters) {
  Corpus forward(AlignMode::uniform), backward(AlignMode::uniform);
  forward.add("a b c", "a d");
  backward.add("a d", "a b c");
  EXPECT_NE(forward.score().tdcone, backward.score().tdcone);
}

// The split of a pair's sorted types into x∩y, x\y and y\x is the sets'
// (std::set_intersection and std::set_difference), for sides of every
// overlap: disjoint, equal, one inside the other, empty, one word.
TEST(AlignTest, SplitIsTheSetsIntersectionAndDifferences) {
  std::mt19937 random(7);
  const align::PairAligner aligner(AlignMode::uniform, nullptr);
  align::PairSplit split;
  auto sorted_set = [&](std::size_t n, WordId range) {
    std::vector<WordId> words;
    std::uniform_int_distribution<WordId> word(1, range);
    for (std::size_t k = 0; k < n; ++k) words.push_back(word(random));
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const WordId range = trial % 4 == 0 ? 4 : 40;  // small ranges overlap heavily
    const std::vector<WordId> x = sorted_set(trial % 17, range);
    const std::vector<WordId> y = trial % 5 == 0 ? x : sorted_set(trial % 13, range);
    std::vector<WordId> same, x_only, y_only;
    std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(same));
    std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(x_only));
    std::set_difference(y.begin(), y.end(), x.begin(), x.end(), std::back_inserter(y_only));
    aligner.split(x, y, split);
    ASSERT_EQ(split.same, same) << "trial " << trial;
    ASSERT_EQ(split.x_only, x_only) << "trial " << trial;
    ASSERT_EQ(split.y_only, y_only) << "trial " << trial;
    ASSERT_TRUE(split.shares.empty());
  }
}

}  // namespace
}  // namespace tdcone
