// The score engine's stage "vocabulary" (engine/vocabulary_stage.hpp) on one
// rank: which words get which marks (each side of the corpus and of the
// reference, each group's output words, a vector), and their routes.
#include "tdcone/engine/vocabulary_stage.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <set>
#include <vector>

#include "tdcone/entropy/pair_groups.hpp"
#include "hand_share.hpp"

namespace tdcone::engine {
namespace {

namespace bmpi = boost::mpi;
using mpi::WordMarks;
using test_support::HandShare;

// The distinct words with `bit`, over the ranks.
std::uint64_t words_with(const RoutedVocabulary& words, unsigned bit) { return words.global.count(MPI_COMM_SELF, bit); }

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
}

entropy::PairGroups groups_of(std::vector<std::uint32_t> group_of_pair, std::size_t groups) {
  entropy::PairGroups g;
  g.group_of_pair = std::move(group_of_pair);
  g.subsets_of_group.assign(groups, {0});
  return g;
}

TEST(VocabularyStage, TheScoredPairsMarkTheirSidesAndGroups) {
  HandShare corpus;
  corpus.add("a b", "b c");                // group 0
  corpus.add("d", "e");                    // group 1
  corpus.add("x", "y", schema::bad_line);  // marks nothing
  corpus.add("f", "c");                    // in no group: its sides all the same
  HandShare reference;
  reference.vocabulary = corpus.vocabulary;
  reference.add("a z", "g");
  const auto groups = groups_of({0, 1, entropy::kNoGroup, entropy::kNoGroup}, 2);
  const RoutedVocabulary words = route_vocabulary(self(), corpus.share, &reference.share, reference.vocabulary, groups);
  EXPECT_EQ(words_with(words, WordMarks::corpus_input), 4u);   // a b d f
  EXPECT_EQ(words_with(words, WordMarks::corpus_output), 3u);  // b c e
  EXPECT_EQ(words_with(words, WordMarks::group_output(0)), 2u);  // b c
  EXPECT_EQ(words_with(words, WordMarks::group_output(1)), 1u);  // e
  EXPECT_EQ(words_with(words, WordMarks::reference_input), 2u);   // a z
  EXPECT_EQ(words_with(words, WordMarks::reference_output), 1u);  // g
  EXPECT_EQ(words_with(words, WordMarks::with_vector), 0u);
  // Both sides: b alone.
  const auto both = words.global.count(MPI_COMM_SELF, 1, [](std::span<const std::uint64_t> marks, std::size_t) {
    return WordMarks::test(marks, WordMarks::corpus_input) && WordMarks::test(marks, WordMarks::corpus_output);
  });
  EXPECT_EQ(both, std::vector<std::uint64_t>{1});
}

TEST(VocabularyStage, EveryWordHasItsOwnGlobalIdAndOneRankOwnsAll) {
  HandShare corpus;
  corpus.add("a b", "b c");
  corpus.add("d", "a");
  const RoutedVocabulary words = route_vocabulary(self(), corpus.share, nullptr, corpus.vocabulary,
                                                  entropy::corpus_groups(corpus.share));
  ASSERT_EQ(words.routes.global_id.size(), corpus.vocabulary.size());
  ASSERT_EQ(words.routes.owner.size(), corpus.vocabulary.size());
  EXPECT_EQ(words.routes.global_id[0], 0u);  // NULL
  std::set<std::uint32_t> ids;
  for (text::WordId w = 1; w < corpus.vocabulary.size(); ++w) {
    EXPECT_NE(words.routes.global_id[w], 0u) << corpus.vocabulary.word(w);
    ids.insert(words.routes.global_id[w]);
    EXPECT_EQ(words.routes.owner[w], 0u);
  }
  EXPECT_EQ(ids.size(), 4u);  // a b c d
  EXPECT_EQ(words.global.first_id, (std::vector<std::uint32_t>{1, 5}));
}

TEST(VocabularyStage, WordsWithAVectorAreMarked) {
  HandShare corpus;
  corpus.add("a b", "c");
  align::EmbeddingTable embeddings;
  embeddings.set(corpus.vocabulary.intern("a"), {1, 0});
  embeddings.set(corpus.vocabulary.intern("c"), {0, 1});
  const RoutedVocabulary words = route_vocabulary(self(), corpus.share, nullptr, corpus.vocabulary,
                                                  entropy::corpus_groups(corpus.share), &embeddings);
  EXPECT_EQ(words_with(words, WordMarks::with_vector), 2u);
}

}  // namespace
}  // namespace tdcone::engine
