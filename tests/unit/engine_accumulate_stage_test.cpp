// The score engine's stage "align" (engine/accumulate_stage.hpp) on one rank:
// what its rounds add to the matrix pair by pair (cells, groups, the pairs'
// own TD-CONE, the spread words) and where a round ends.
#include "tdcone/engine/accumulate_stage.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/engine/vocabulary_stage.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/mpi/guard.hpp"
#include "hand_share.hpp"

namespace tdcone::engine {
namespace {

namespace bmpi = boost::mpi;
using text::WordId;

const double kLn2 = std::log(2.0), kLn3 = std::log(3.0);

// (row word, column word, group) -> weight; NULL is "NULL".
using Cells = std::map<std::tuple<std::string, std::string, std::uint32_t>, double>;

// Pairs of whitespace-separated words, aligned by accumulate() into a matrix
// with one group per value of `group_of_pair`.
class Pairs {
 public:
  explicit Pairs(align::AlignMode mode = align::AlignMode::uniform, const align::EmbeddingTable* embeddings = nullptr)
      : embeddings_(embeddings), aligner_(mode, embeddings) {}

  void add(const std::string& x, const std::string& y, std::uint8_t flags = 0) { pairs_.add(x, y, flags); }
  const text::TokenizedShare& share() const { return pairs_.share; }

  /// Runs accumulate() over a copy of the share (it releases the types it
  /// aligns) in the groups of `groups` (the corpus when it has none).
  SpreadWords accumulate(entropy::PairGroups groups = {}, const AccumulateLimits& limits = {},
                         const ProgressCallback& progress = {}) {
    if (groups.group_count() == 0) groups = entropy::corpus_groups(share());
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    words_ = route_vocabulary(self, share(), nullptr, vocabulary(), groups, embeddings_);
    matrix_.emplace(matrix::MatrixLayout::make(words_.global, 0, groups.group_count()),
                    matrix::WeightScale(share().total_lines));
    aligned_ = share();
    const SpreadWords spread =
        engine::accumulate(self, aligned_, groups.group_of_pair, aligner_, words_.routes, *matrix_, limits, progress,
                           &pair_tdcone);
    matrix_->finish();
    return spread;
  }

  /// The matrix of the last accumulate().
  Cells cells() const {
    std::vector<std::string> word_of(words_.global.first_id.back());
    for (WordId w = 1; w < vocabulary().size(); ++w) word_of[words_.global.global_id[w]] = vocabulary().word(w);
    word_of[0] = "NULL";
    Cells out;
    matrix::PartitionedMatrix::RowCursor rows(*matrix_);
    const auto& layout = matrix_->layout();
    while (rows.next())
      for (const matrix::MatrixCell& c : rows.cells())
        out[{word_of[rows.row_id()], word_of[layout.column(c.key)], layout.group(c.key)}] +=
            matrix_->scale().real(c.weight);
    return out;
  }

  /// The share as accumulate() left it.
  const text::TokenizedShare& aligned() const { return aligned_; }

  text::Vocabulary& vocabulary() { return pairs_.vocabulary; }
  const text::Vocabulary& vocabulary() const { return pairs_.vocabulary; }
  std::vector<double> pair_tdcone;

 private:
  const align::EmbeddingTable* embeddings_;
  align::PairAligner aligner_;
  test_support::HandShare pairs_;
  text::TokenizedShare aligned_;
  RoutedVocabulary words_;
  std::optional<matrix::PartitionedMatrix> matrix_;
};

void expect_cells_near(const Cells& have, const Cells& want) {
  ASSERT_EQ(have.size(), want.size());
  for (auto h = have.begin(), w = want.begin(); h != have.end(); ++h, ++w) {
    EXPECT_EQ(h->first, w->first);
    EXPECT_NEAR(h->second, w->second, 1e-12) << std::get<0>(h->first) << ">" << std::get<1>(h->first) << " in group "
                                              << std::get<2>(h->first);
  }
}

// Rule 1 (a word of both sides aligns to itself), rule 2 (x\y spreads over
// y\x and NULL), rule 3 (NULL's row when x\y is empty), each pair in its
// group; a bad line and a pair in no group add nothing.
TEST(AccumulateStage, EachPairAddsItsCellsToItsGroup) {
  Pairs p;
  p.add("a b", "a c");                     // group 0: a>a 1, b>c 1/2, b>NULL 1/2
  p.add("d", "e f");                       // group 1: d>e, d>f, d>NULL 1/3 each
  p.add("a", "c", schema::bad_line);       // nothing
  p.add("b", "a");                         // no group: nothing
  p.add("", "c");                          // group 1: NULL>c 1
  p.add("a b", "a c");                     // group 1, as the first in group 0
  entropy::PairGroups groups;
  groups.group_of_pair = {0, 1, entropy::kNoGroup, entropy::kNoGroup, 1, 1};
  groups.subsets_of_group = {{0}, {0, 1}};
  groups.subset_count = 2;
  const SpreadWords spread = p.accumulate(groups);
  const double third = 1.0 / 3;
  expect_cells_near(p.cells(), {{{"a", "a", 0}, 1},
                                {{"b", "c", 0}, 0.5},
                                {{"b", "NULL", 0}, 0.5},
                                {{"d", "e", 1}, third},
                                {{"d", "f", 1}, third},
                                {{"d", "NULL", 1}, third},
                                {{"NULL", "c", 1}, 1},
                                {{"a", "a", 1}, 1},
                                {{"b", "c", 1}, 0.5},
                                {{"b", "NULL", 1}, 0.5}});
  // Rule 2's mass: the x\y words of the grouped pairs with a non-empty y\x.
  EXPECT_EQ(spread.spread_words, 3u);
  EXPECT_EQ(spread.spread_by_vectors, 0u);
}

// A pair's own TD-CONE, H(Y|X) of its cells over ln(|y| + 1): also of a pair
// in no group; NaN for a bad line.
TEST(AccumulateStage, EveryPairGetsItsOwnTdcone) {
  Pairs p;
  p.add("a b", "a c");  // T = 2, H = (1/2)·ln 2, |y| = 2
  p.add("d", "e f");    // T = 1, H = ln 3, |y| = 2
  p.add("a", "c", schema::bad_line);
  p.add("b", "a");      // T = 1, H = ln 2, |y| = 1
  p.add("", "c");       // NULL>c alone: H = 0
  entropy::PairGroups groups;
  groups.group_of_pair = {0, 0, entropy::kNoGroup, entropy::kNoGroup, 0};
  groups.subsets_of_group = {{0}};
  p.accumulate(groups);
  ASSERT_EQ(p.pair_tdcone.size(), 5u);
  EXPECT_NEAR(p.pair_tdcone[0], (kLn2 / 2) / kLn3, 1e-15);
  EXPECT_NEAR(p.pair_tdcone[1], 1.0, 1e-15);
  EXPECT_TRUE(std::isnan(p.pair_tdcone[2]));
  EXPECT_NEAR(p.pair_tdcone[3], 1.0, 1e-15);
  EXPECT_EQ(p.pair_tdcone[4], 0.0);
}

// Embedding mode: the shares of x\y over y\x by cosine travel with their rows.
TEST(AccumulateStage, EmbeddingSharesTravelWithTheirRows) {
  align::EmbeddingTable embeddings;
  Pairs p(align::AlignMode::embedding, &embeddings);
  p.add("a", "b d");
  p.add("e", "b");  // e has no vector: all of it to b, counted as spread but not by vectors
  embeddings.set(p.vocabulary().intern("a"), {1, 0});
  embeddings.set(p.vocabulary().intern("b"), {1, 0});  // cos(a,b) = 1
  embeddings.set(p.vocabulary().intern("d"), {1, 1});  // cos(a,d) = 1/√2
  const double share_b = 1 / (1 + 1 / std::sqrt(2.0));
  const SpreadWords spread = p.accumulate();
  expect_cells_near(p.cells(), {{{"a", "b", 0}, share_b}, {{"a", "d", 0}, 1 - share_b}, {{"e", "b", 0}, 1}});
  EXPECT_EQ(spread.spread_words, 2u);
  EXPECT_EQ(spread.spread_by_vectors, 1u);
}

// Pairs "a" -> "b c": each sends one message of 8 words (a header of 5, the
// two words of y\x, the row a).
Pairs eight_word_pairs(std::size_t n) {
  Pairs p;
  for (std::size_t i = 0; i < n; ++i) p.add("a", "b c");
  return p;
}

// The pairs done after each round, as the progress sees them: one update a
// round and one when no pair is left, then the finish.
std::vector<std::uint64_t> pairs_done_by_round(std::size_t pairs, std::uint64_t round_bytes, Cells* cells = nullptr) {
  Pairs p = eight_word_pairs(pairs);
  std::vector<std::uint64_t> done;
  std::uint64_t finished = 0;
  const ProgressCallback progress(
      [&](std::uint64_t d, double fraction) {
        done.push_back(d);
        EXPECT_DOUBLE_EQ(fraction, pairs > 0 ? static_cast<double>(d) / static_cast<double>(pairs) : 1.0);
      },
      [&](std::uint64_t d) { finished = d; });
  AccumulateLimits limits;
  limits.round_bytes = round_bytes;
  p.accumulate({}, limits, progress);
  EXPECT_EQ(finished, pairs);
  if (cells) *cells = p.cells();
  return done;
}

TEST(AccumulateStage, ARoundEndsWithThePairThatFillsItsWords) {
  using Done = std::vector<std::uint64_t>;
  // round_bytes / 4 words a round: 1024 words are 128 pairs.
  EXPECT_EQ(pairs_done_by_round(300, 4096), (Done{128, 256, 300, 300}));
  // One word more: the 129th pair fills the round.
  EXPECT_EQ(pairs_done_by_round(300, 4100), (Done{129, 258, 300, 300}));
  EXPECT_EQ(pairs_done_by_round(300, 8192), (Done{256, 300, 300}));
  EXPECT_EQ(pairs_done_by_round(300, AccumulateLimits{}.round_bytes), (Done{300, 300}));
}

TEST(AccumulateStage, ARoundIsAtLeast1024Words) {
  using Done = std::vector<std::uint64_t>;
  EXPECT_EQ(pairs_done_by_round(300, 1), (Done{128, 256, 300, 300}));
  EXPECT_EQ(pairs_done_by_round(300, 0), (Done{128, 256, 300, 300}));
}

TEST(AccumulateStage, NoPairsIsOneEmptyRound) {
  EXPECT_EQ(pairs_done_by_round(0, 4096), (std::vector<std::uint64_t>{0}));
}

TEST(AccumulateStage, TheRoundsChangeNoCell) {
  Cells one_round, many_rounds;
  pairs_done_by_round(300, AccumulateLimits{}.round_bytes, &one_round);
  pairs_done_by_round(300, 4096, &many_rounds);
  EXPECT_EQ(many_rounds, one_round);  // bit for bit
  expect_cells_near(one_round, {{{"a", "b", 0}, 100}, {{"a", "c", 0}, 100}, {{"a", "NULL", 0}, 100}});
}

TEST(AccumulateStage, TheAlignedTypesAreReleased) {
  Pairs p = eight_word_pairs(3);
  p.accumulate();
  EXPECT_TRUE(p.aligned().types_released());
  EXPECT_GT(p.aligned().released_bytes(), 0u);
}

TEST(AccumulateStage, AMatrixOverTheBudgetFailsWithStatus2) {
  // What the caller holds outside the matrix includes the share, which
  // gives its types back as they are aligned.
  Pairs p = eight_word_pairs(300);
  AccumulateLimits limits;
  limits.held_bytes = p.share().bytes();
  limits.memory_bytes = 1;  // less than anything held
  try {
    p.accumulate({}, limits);
    FAIL() << "no error over the budget";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2);
    EXPECT_NE(std::string(e.what()).find("alignment matrix does not fit"), std::string::npos) << e.what();
  }
  limits.memory_bytes = std::uint64_t{1} << 50;
  Pairs q = eight_word_pairs(300);
  EXPECT_NO_THROW(q.accumulate({}, limits));
}

// Twice the words of the sides and six a pair.
TEST(AccumulateStage, MessageWordsAreEstimatedFromTheSides) {
  Pairs p;
  p.add("a b", "a c");
  p.add("d", "e f");
  p.add("", "");
  EXPECT_EQ(estimated_message_words(p.share()), 2u * ((2 + 2 + 1 + 2) + 6 * 3));
}

}  // namespace
}  // namespace tdcone::engine
