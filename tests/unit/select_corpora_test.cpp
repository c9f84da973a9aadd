// From the corpora to what cynical selection works on (select/corpora.hpp),
// by hand on one rank: the lexicon and each corpus's counts on its side, the
// AVAIL lines in lexicon ids with the junk left out, SEED lines flagged by
// their text, and the lines' fingerprint.
#include "tdcone/select/corpora.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/mpi/share_reader.hpp"
#include "temp_files.hpp"

namespace tdcone::select {
namespace {

namespace bmpi = boost::mpi;
using Counts = std::vector<std::uint64_t>;

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
}

// TSV src \t tgt lines, words split at spaces; a line without a tab is bad.
class Texts {
 public:
  text::TokenizedShare read(const std::string& lines) {
    text::ReadOptions options;
    options.keep_counts = true;
    options.tokenizer.kind = text::TokenizerKind::whitespace;
    const std::string file = dir_.write("corpus" + std::to_string(files_++) + ".tsv", lines);
    return mpi::read_share(self(), io::resolve_inputs({file}), options, corpora.vocabulary);
  }
  Corpora corpora;

 private:
  test_support::TempDir dir_{"tdcone_corpora_test"};
  int files_ = 0;
};

// Lexicon: every word read, sorted. REPR "a b a \t x"; AVAIL "a c \t y y",
// "b \t z" and a bad line; SEED "c \t q"; UNAD: AVAIL.
void read_example(Texts& t) {
  t.corpora.representative = t.read("a b a\tx\n");
  t.corpora.available = t.read("a c\ty y\nb\tz\na\n");
  t.corpora.seed = t.read("c\tq\n");
}

TEST(SelectCorpora, EachCorpusIsCountedOnItsSide) {
  Texts t;
  read_example(t);
  std::vector<std::uint32_t> id;
  const Statistics src = gather_statistics(self(), t.corpora, Side::src, id);
  EXPECT_EQ(src.lexicon, (std::vector<std::string>{"a", "b", "c", "q", "x", "y", "z"}));
  EXPECT_EQ(src.repr, (Counts{2, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(src.repr_tokens, 3u);
  EXPECT_EQ(src.available, (Counts{1, 1, 1, 0, 0, 0, 0}));  // not the bad line's a
  EXPECT_EQ(src.unadapted, src.available);
  EXPECT_EQ(src.unadapted_tokens, 3u);
  EXPECT_EQ(src.seed, (Counts{0, 0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(src.seed_tokens, 1u);
  ASSERT_EQ(id.size(), t.corpora.vocabulary.size());
  for (text::WordId w = 1; w < id.size(); ++w) EXPECT_EQ(src.lexicon[id[w]], t.corpora.vocabulary.word(w));

  const Statistics tgt = gather_statistics(self(), t.corpora, Side::tgt, id);
  EXPECT_EQ(tgt.repr, (Counts{0, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(tgt.available, (Counts{0, 0, 0, 0, 0, 2, 1}));
  EXPECT_EQ(tgt.unadapted_tokens, 3u);
  EXPECT_EQ(tgt.seed, (Counts{0, 0, 0, 1, 0, 0, 0}));

  const Statistics both = gather_statistics(self(), t.corpora, Side::both, id);
  EXPECT_EQ(both.repr, (Counts{2, 1, 0, 0, 1, 0, 0}));
  EXPECT_EQ(both.repr_tokens, 4u);

  // A corpus's own side wins over `side`; UNAD, when given, is counted apart.
  t.corpora.representative_side = Side::tgt;
  t.corpora.unadapted = t.read("c c\tq\n");
  const Statistics own = gather_statistics(self(), t.corpora, Side::src, id);
  EXPECT_EQ(own.repr, (Counts{0, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(own.unadapted, (Counts{0, 0, 2, 0, 0, 0, 0}));
  EXPECT_EQ(own.unadapted_tokens, 2u);
  EXPECT_EQ(own.available, src.available);
}

TEST(SelectCorpora, AvailLinesAreLexiconIdsWithCountsAndTheJunkApart) {
  Texts t;
  t.corpora.representative = t.read("a\tb\n");
  // 0: three tokens; 1: a bad line; 2: four tokens, over the cap; 3: one.
  t.corpora.available = t.read("c a c\tq\na\nb b b b\tq\nb\tq q\n");
  std::vector<std::uint32_t> id;
  const Statistics stats = gather_statistics(self(), t.corpora, Side::src, id);
  ASSERT_EQ(stats.lexicon, (std::vector<std::string>{"a", "b", "c", "q"}));
  std::vector<std::size_t> junk;
  const AvailableLines lines = available_lines(t.corpora.available, Side::src, id, 3, junk);
  EXPECT_EQ(junk, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(lines.pair_id, (std::vector<std::uint64_t>{0, 3}));
  EXPECT_EQ(lines.length, (std::vector<std::uint32_t>{3, 1}));
  EXPECT_EQ(lines.start, (std::vector<std::uint64_t>{0, 2, 3}));
  EXPECT_EQ(lines.words, (std::vector<std::uint32_t>{0, 2, 1}));  // a c | b
  EXPECT_EQ(lines.counts, (std::vector<std::uint32_t>{1, 2, 1}));

  // Both sides: line 3 is "b q q", four tokens: junk too.
  junk.clear();
  const AvailableLines both = available_lines(t.corpora.available, Side::both, id, 4, junk);
  EXPECT_EQ(junk, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(both.length, (std::vector<std::uint32_t>{4, 3}));
  EXPECT_EQ(both.words, (std::vector<std::uint32_t>{0, 2, 3, 1, 3}));
  EXPECT_EQ(both.counts, (std::vector<std::uint32_t>{1, 2, 1, 1, 2}));
}

// A SEED line's text on the side, byte for byte; a junk AVAIL line stays junk.
TEST(SelectCorpora, AvailLinesWithTheTextOfASeedLineAreFlagged) {
  Texts t;
  t.corpora.representative = t.read("a\tb\n");
  t.corpora.available = t.read("a b\tx\na b\ty\na  b\tx\n\tx\nc\tx\n");
  t.corpora.seed = t.read("a b\tx\n\tx\n");
  EXPECT_EQ(flag_seed_lines(self(), t.corpora, Side::src, 100), 2u);  // lines 0, 1; not 2 (two spaces), not 3 (junk)
  EXPECT_EQ(t.corpora.available.flags[0], schema::in_seed);
  EXPECT_EQ(t.corpora.available.flags[1], schema::in_seed);
  EXPECT_EQ(t.corpora.available.flags[2], 0);

  Texts u;
  u.corpora.representative = u.read("a\tb\n");
  u.corpora.available = u.read("a b\tx\na b\ty\nc\tx\n");
  u.corpora.seed = u.read("a b\tx\n");
  EXPECT_EQ(flag_seed_lines(self(), u.corpora, Side::both, 100), 1u);  // both texts: line 0 only
  EXPECT_EQ(u.corpora.available.flags[0], schema::in_seed);
  EXPECT_EQ(u.corpora.available.flags[1], 0);
}

TEST(SelectCorpora, FlaggedAvailLinesCountNowhere) {
  Texts t;
  t.corpora.representative = t.read("a\tb\n");
  t.corpora.available = t.read("a b\tx\nc\tx\n");
  t.corpora.seed = t.read("a b\tx\n");
  flag_seed_lines(self(), t.corpora, Side::src, 100);
  std::vector<std::uint32_t> id;
  const Statistics stats = gather_statistics(self(), t.corpora, Side::src, id);
  ASSERT_EQ(stats.lexicon, (std::vector<std::string>{"a", "b", "c", "x"}));
  EXPECT_EQ(stats.available, (Counts{0, 0, 1, 0}));
  EXPECT_EQ(stats.unadapted_tokens, 1u);
  std::vector<std::size_t> junk;
  const AvailableLines lines = available_lines(t.corpora.available, Side::src, id, 100, junk);
  EXPECT_EQ(junk, (std::vector<std::size_t>{0}));
  EXPECT_EQ(lines.pair_id, (std::vector<std::uint64_t>{1}));
}

TEST(SelectCorpora, TheFingerprintChangesWhenALineChangesOrMoves) {
  Texts t;
  const std::uint64_t print = lines_fingerprint(t.read("a\tb\nc\td\n"));
  EXPECT_EQ(lines_fingerprint(t.read("a\tb\nc\td\n")), print);
  EXPECT_NE(lines_fingerprint(t.read("c\td\na\tb\n")), print);   // moved
  EXPECT_NE(lines_fingerprint(t.read("a\tb\nc\tdd\n")), print);  // changed
  EXPECT_NE(lines_fingerprint(t.read("a\tb\n")), print);         // one fewer
  text::TokenizedShare flagged = t.read("a\tb\nc\td\n");
  flagged.flags[1] |= schema::in_seed;
  EXPECT_NE(lines_fingerprint(flagged), print);
}

}  // namespace
}  // namespace tdcone::select
