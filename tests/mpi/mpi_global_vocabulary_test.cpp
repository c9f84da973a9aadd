// Global word ids (mpi/global_vocabulary.hpp): every rank's words get one id
// over all ranks, owned by one rank, with the marks of every rank merged.
#include "tdcone/mpi/global_vocabulary.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tdcone::mpi {
namespace {

// "w" + i (built so that GCC 12 sees no overlapping copy: -Wrestrict).
std::string word(int i) {
  std::string w = "w";
  w += std::to_string(i);
  return w;
}

// Rank r knows words w0..w(9+r) and w100+r (its own), in an order of its own;
// it marks the words it has as corpus input, and w0 also as output.
struct RankWords {
  text::Vocabulary vocabulary;
  std::vector<std::string> words;
  explicit RankWords(int rank) {
    for (int i = 9 + rank; i >= 0; --i) words.push_back(word(i));
    words.push_back(word(100 + rank));
    for (const auto& w : words) vocabulary.intern(w);
  }
  /// Every word of the rank marked as corpus input.
  WordMarks input_marks() const {
    WordMarks marks(vocabulary.size(), 0);
    for (const auto& w : words) marks.set(vocabulary.find(w), WordMarks::corpus_input);
    return marks;
  }
};

// The distinct words over `n_ranks` ranks: w0..w(8+n), w100..w(99+n).
std::size_t distinct_words(int n_ranks) { return 10 + n_ranks - 1 + n_ranks; }

TEST(GlobalVocabulary, OneIdPerWordOverAllRanksWithMergedMarks) {
  const boost::mpi::communicator world;
  const RankWords mine(world.rank());
  WordMarks marks = mine.input_marks();
  marks.set(mine.vocabulary.find("w0"), WordMarks::corpus_output);
  const GlobalVocabulary global = build_global_vocabulary(world, mine.vocabulary, marks);

  ASSERT_EQ(global.global_id.size(), mine.vocabulary.size());
  EXPECT_EQ(global.global_id[text::kNullWord], 0u);
  // Every rank names the same id for the same word, and distinct words get distinct ids.
  std::vector<std::pair<std::string, std::uint32_t>> named;
  for (const auto& w : mine.words) named.emplace_back(w, global.global_id[mine.vocabulary.find(w)]);
  std::vector<std::vector<std::pair<std::string, std::uint32_t>>> all;
  boost::mpi::all_gather(world, named, all);
  std::map<std::string, std::uint32_t> id_of;
  std::set<std::uint32_t> ids;
  for (const auto& rank_words : all)
    for (const auto& [word, id] : rank_words) {
      const auto [it, added] = id_of.emplace(word, id);
      EXPECT_EQ(it->second, id) << word;
      if (added) {
        EXPECT_TRUE(ids.insert(id).second) << word << " shares id " << id;
      }
    }
  const std::size_t distinct = distinct_words(world.size());
  EXPECT_EQ(id_of.size(), distinct);
  EXPECT_EQ(global.first_id.back() - 1, distinct);  // ids 1..distinct, 0 is NULL
  for (const auto& [word, id] : id_of) {
    EXPECT_GE(id, 1u);
    EXPECT_LE(id, distinct);
  }
  // Each word is owned once; the counts see every rank's marks.
  const std::uint64_t owned = boost::mpi::all_reduce(world, static_cast<std::uint64_t>(global.owned_count()), std::plus<>());
  EXPECT_EQ(owned, distinct);
  EXPECT_EQ(global.count(world, WordMarks::corpus_input), distinct);
  EXPECT_EQ(global.count(world, WordMarks::corpus_output), 1u);
  EXPECT_EQ(global.count(world, WordMarks::reference_input), 0u);
  for (const auto& [word, id] : id_of) {
    const int owner = global.owner(id);
    EXPECT_GE(owner, 0);
    EXPECT_LT(owner, world.size());
  }
}

// Ten words, known to every rank, carry nearly all the rows' work, alike
// (as a corpus's most frequent words): the placement evens them out over
// the owners, as no single hash would but by luck (a hash puts ceil(10/n)
// or fewer on every owner with chance 25 % on 2 ranks, 21 % on 3, 14 % on 4),
// and the owners' counts still add up.
TEST(GlobalVocabulary, HeavyRowsAreSpreadEvenly) {
  const boost::mpi::communicator world;
  const RankWords mine(world.rank());
  const WordMarks marks = mine.input_marks();
  std::vector<std::uint64_t> work(mine.vocabulary.size(), 1);
  for (int i = 0; i < 10; ++i) work[mine.vocabulary.find(word(i))] = 100'000;
  const GlobalVocabulary global = build_global_vocabulary(world, mine.vocabulary, marks, work);

  std::vector<int> heavy_rows(world.size(), 0);
  for (int i = 0; i < 10; ++i) ++heavy_rows.at(global.owner(global.global_id[mine.vocabulary.find(word(i))]));
  const int fair = (10 + world.size() - 1) / world.size();
  for (int owner = 0; owner < world.size(); ++owner) EXPECT_LE(heavy_rows[owner], fair) << "owner " << owner;
  const std::size_t distinct = distinct_words(world.size());
  const std::uint64_t owned = boost::mpi::all_reduce(world, static_cast<std::uint64_t>(global.owned_count()), std::plus<>());
  EXPECT_EQ(owned, distinct);
  EXPECT_EQ(global.first_id.back() - 1, distinct);
  EXPECT_EQ(global.count(world, WordMarks::corpus_input), distinct);
}

// A rank that knows no work (empty row_work) still takes part in the
// placement's collective: the others, which pass theirs, do not wait for it
// (bounded by the test's timeout if they did), and every word gets one id.
TEST(GlobalVocabulary, ARankWithoutWorkStillAgreesOnThePlacement) {
  const boost::mpi::communicator world;
  const RankWords mine(world.rank());
  const WordMarks marks = mine.input_marks();
  std::vector<std::uint64_t> work;
  if (world.rank() != 0) work.assign(mine.vocabulary.size(), 1);
  const GlobalVocabulary global = build_global_vocabulary(world, mine.vocabulary, marks, work);

  const std::size_t distinct = distinct_words(world.size());
  EXPECT_EQ(global.first_id.back() - 1, distinct);
  EXPECT_EQ(global.count(world, WordMarks::corpus_input), distinct);
}

}  // namespace
}  // namespace tdcone::mpi
