// Cynical selection by hand (docs/spec.md §6): word classes, WGE, penalty, gain, ΔH,
// the first pick, batches with duplicates, the second pass, junk, SEED.
#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cmath>

#include "tdcone/mpi/share_reader.hpp"
#include "tdcone/select/corpora.hpp"
#include "temp_files.hpp"

namespace tdcone::select {
namespace {

namespace bmpi = boost::mpi;

struct Ranking {
  Statistics stats;
  Selection selection;
  std::vector<std::size_t> junk;
  std::uint64_t in_seed = 0;       // AVAIL lines flagged 8 (with skip_seed)
  std::vector<std::uint8_t> flags;  // the AVAIL share's flags
  std::string word(std::size_t rank) const { return stats.lexicon[selection.ranked[rank].root_word]; }
};

// Selects among one-sentence-per-line texts on one rank, as `tdcone select` does.
Ranking select_texts(const std::string& repr, const std::string& avail, CynicalOptions options = {},
                 const std::string& seed = "", bool skip_seed = false) {
  test_support::TempDir dir("tdcone_select_test");
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  text::ReadOptions read;
  read.keep_counts = true;
  read.fields.tgt_col = 1;  // one column: the line is the src side
  read.tokenizer.kind = text::TokenizerKind::whitespace;
  Corpora corpora;
  auto load = [&](const std::string& name, const std::string& text) {
    return mpi::read_share(self, io::resolve_inputs({dir.write(name, text)}), read, corpora.vocabulary);
  };
  corpora.representative = load("repr.txt", repr);
  corpora.available = load("avail.txt", avail);
  if (!seed.empty()) corpora.seed = load("seed.txt", seed);
  Ranking run;
  if (skip_seed) run.in_seed = flag_seed_lines(self, corpora, Side::src, options.length_cap);
  run.flags = corpora.available.flags;
  std::vector<std::uint32_t> lexicon_id;
  run.stats = gather_statistics(self, corpora, Side::src, lexicon_id);
  const auto lines = available_lines(corpora.available, Side::src, lexicon_id, options.length_cap, run.junk);
  run.selection = select_lines(self, run.stats, lines, options);
  return run;
}

TEST(SelectTest, WorkedExampleOfTheSpec) {
  // REPR a b / a c; AVAIL a b / c c d / e: h = {a .5, b .25, c .25}, |L| = 5.
  const Ranking run = select_texts("a b\na c\n", "a b\nc c d\ne\n");
  const auto& r = run.selection.ranked;
  EXPECT_NEAR(run.selection.h_initial, std::log(5.0), 1e-12);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].pair_id, 0u);  // "a b" first
  EXPECT_NEAR(r[0].penalty, std::log(2.05 / 0.05), 1e-12);
  EXPECT_NEAR(r[0].gain, 0.75 * std::log(0.01 / 1.01), 1e-12);
  EXPECT_NEAR(r[0].delta_h, 0.2522317, 5e-8);
  EXPECT_NEAR(r[0].cross_entropy, 1.8616696, 5e-8);
  EXPECT_EQ(run.word(0), "a");
  EXPECT_NEAR(r[0].wge, 0.5 * std::log(0.01 / 1.01), 1e-12);  // -2.3075603
  EXPECT_EQ(r[1].pair_id, 1u);  // then "c c d", through c
  EXPECT_NEAR(r[1].penalty, std::log(5.05 / 2.05), 1e-12);
  EXPECT_NEAR(r[1].gain, 0.25 * std::log(0.01 / 2.01), 1e-12);
  EXPECT_NEAR(r[1].delta_h, -0.4242778, 5e-8);
  EXPECT_NEAR(r[1].cross_entropy, 1.4373918, 5e-8);
  EXPECT_EQ(run.word(1), "c");
  EXPECT_EQ(r[2].pair_id, 2u);  // "e" helps nothing: pure penalty
  EXPECT_NEAR(r[2].delta_h, std::log(6.05 / 5.05), 1e-12);
  EXPECT_EQ(run.selection.stop_rank, 2u);
}

TEST(SelectTest, WordClasses) {
  Statistics s;
  s.lexicon = {"boring", "bad", "dubious", "good", "new", "absent", "useless"};
  s.repr = {10, 1, 2, 30, 5, 4, 0};
  s.unadapted = {10, 100, 2, 3, 0, 10, 50};
  s.available = {10, 100, 2, 3, 0 + 1, 0, 50};
  s.repr_tokens = 100;
  s.unadapted_tokens = 100;
  // ratio: boring 1, bad 0.01, good 10, new ∞ (C_U = 0); dubious is under mincount 3 in both;
  // absent has no AVAIL lines; useless is not in REPR.
  EXPECT_EQ(selectable_words(s, {}), (std::vector<bool>{true, false, false, true, true, false, false}));
  CynicalOptions strict;
  strict.keep_boring = false;
  EXPECT_EQ(selectable_words(s, strict), (std::vector<bool>{false, false, false, true, true, false, false}));
  CynicalOptions lenient;
  lenient.mincount = 1;
  EXPECT_TRUE(selectable_words(s, lenient)[2]);
}

TEST(SelectTest, FirstPickContainsTheBestWordAndHasTheBestDelta) {
  // x is frequent in REPR and rare in AVAIL: the best word. Of its lines the
  // short one wins: the same gain, a smaller penalty than x with 4 words REPR lacks.
  CynicalOptions options;
  options.mincount = 1;
  const Ranking run = select_texts("x y\nx z\nx\n", "y y y\nx w v u t\nx\nz\n", options);
  EXPECT_EQ(run.word(0), "x");
  EXPECT_EQ(run.selection.ranked[0].pair_id, 2u);
}

TEST(SelectTest, IdenticalLinesInOneBatchGoBackToThePool) {
  // Four identical lines with x: batch ceil(sqrt(4)) = 2 would take two copies;
  // the second returns to the pool, so every copy is scored after the one before.
  CynicalOptions options;
  options.mincount = 1;
  const Ranking run = select_texts("x y\n", "x\nx\nx\nx\n", options);
  const auto& r = run.selection.ranked;
  ASSERT_EQ(r.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(r[i].pair_id, i);  // ties by pair_id
  for (std::size_t i = 1; i < 4; ++i) EXPECT_NE(r[i].delta_h, r[i - 1].delta_h) << "copies scored together";
  options.batch = false;
  const Ranking one_by_one = select_texts("x y\n", "x\nx\nx\nx\n", options);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(one_by_one.selection.ranked[i].delta_h, r[i].delta_h);
}

TEST(SelectTest, BatchTakesTheSquareRootOfTheWordsLines) {
  // Nine distinct lines with x: the first batch has 3 lines, all scored against the initial model.
  CynicalOptions options;
  options.mincount = 1;
  const Ranking run = select_texts("x\n", "x a\nx b\nx c\nx d\nx e\nx f\nx g\nx h\nx i\n", options);
  const auto& r = run.selection.ranked;
  EXPECT_DOUBLE_EQ(r[0].delta_h, r[2].delta_h);  // same estimate: same batch
  EXPECT_NE(r[2].delta_h, r[3].delta_h);         // the next batch sees the updated model
}

TEST(SelectTest, SecondPassRanksLinesWithoutSelectableWords) {
  CynicalOptions options;
  options.mincount = 1;
  const Ranking run = select_texts("a\n", "z\na\n", options);  // z is not in REPR: not selectable
  ASSERT_EQ(run.selection.ranked.size(), 2u);
  EXPECT_EQ(run.selection.ranked[0].pair_id, 1u);
  EXPECT_EQ(run.selection.ranked[1].pair_id, 0u);
  EXPECT_EQ(run.word(1), "z");
}

TEST(SelectTest, JunkLinesAreNotRanked) {
  CynicalOptions options;
  options.mincount = 1;
  options.length_cap = 3;
  const Ranking run = select_texts("a b\n", "a\n\na b c d\nb\n", options);
  EXPECT_EQ(run.junk, (std::vector<std::size_t>{1, 2}));  // empty, and over the cap
  EXPECT_EQ(run.selection.ranked.size(), 2u);
}

TEST(SelectTest, SeedCorpusStartsTheModel) {
  // SEED "a b": C(a) = C(b) = 1, W = 2; REPR h = {a .5, b .25, c .25}; |L| = 5 (a-e).
  const Ranking run = select_texts("a b\na c\n", "a b\nc c d\ne\n", {}, "a b\n");
  const double expected = std::log(2.05) - (0.5 * std::log(1.01) + 0.25 * std::log(1.01) + 0.25 * std::log(0.01));
  EXPECT_NEAR(run.selection.h_initial, expected, 1e-12);
  EXPECT_EQ(run.word(0), "c");  // a and b are no longer the most wanted
}

TEST(SelectTest, AvailLinesAlreadyInTheSeedAreFlaggedAndNotRanked) {
  CynicalOptions options;
  options.mincount = 1;
  options.length_cap = 3;
  // AVAIL: "a b" twice (in SEED), "c c d" (not: SEED has "c d c"), "a b c d" (in SEED but junk: over the cap),
  // "a  b" (other bytes, same tokens: not the same text), "e".
  const std::string avail = "a b\nc c d\na b\na b c d\na  b\ne\n";
  const Ranking run = select_texts("a b\na c\n", avail, options, "a b\nc d c\na b c d\n", true);
  EXPECT_EQ(run.in_seed, 2u);
  EXPECT_EQ(run.flags, (std::vector<std::uint8_t>{schema::in_seed, 0, schema::in_seed, 0, 0, 0}));
  EXPECT_EQ(run.junk, (std::vector<std::size_t>{0, 2, 3}));
  std::vector<std::uint64_t> ranked;
  for (const RankedLine& r : run.selection.ranked) ranked.push_back(r.pair_id);
  std::sort(ranked.begin(), ranked.end());
  EXPECT_EQ(ranked, (std::vector<std::uint64_t>{1, 4, 5}));

  // The same ranking, statistics and entropies as without those lines in AVAIL.
  const Ranking without = select_texts("a b\na c\n", "c c d\na b c d\na  b\ne\n", options, "a b\nc d c\na b c d\n");
  const std::uint64_t pair_of[] = {1, 3, 4, 5};  // line k of `without` is AVAIL line pair_of[k]
  ASSERT_EQ(run.selection.ranked.size(), without.selection.ranked.size());
  EXPECT_EQ(run.stats.available, without.stats.available);
  EXPECT_EQ(run.stats.unadapted, without.stats.unadapted);
  EXPECT_EQ(run.stats.lexicon, without.stats.lexicon);
  EXPECT_EQ(run.selection.h_initial, without.selection.h_initial);
  EXPECT_EQ(run.selection.stop_rank, without.selection.stop_rank);
  for (std::size_t k = 0; k < run.selection.ranked.size(); ++k) {
    EXPECT_EQ(run.selection.ranked[k].pair_id, pair_of[without.selection.ranked[k].pair_id]);
    EXPECT_EQ(run.selection.ranked[k].cross_entropy, without.selection.ranked[k].cross_entropy);
    EXPECT_EQ(run.selection.ranked[k].delta_h, without.selection.ranked[k].delta_h);
  }
}

TEST(SelectTest, WithoutASeedNothingIsFlagged) {
  const Ranking run = select_texts("a b\n", "a b\nb\n", {}, "", true);
  EXPECT_EQ(run.in_seed, 0u);
  EXPECT_EQ(run.flags, (std::vector<std::uint8_t>{0, 0}));
}

}  // namespace
}  // namespace tdcone::select
