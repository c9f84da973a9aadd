// How much of a static run the vectors decided (engine/embedding_coverage.hpp)
// on one rank: the corpus's word types with a vector per side, the mass
// spread by cosines, their shares and the warnings under half.
#include "tdcone/engine/embedding_coverage.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <cmath>
#include <string>

#include "tdcone/engine/vocabulary_stage.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/mpi/guard.hpp"
#include "hand_share.hpp"

namespace tdcone::engine {
namespace {

namespace bmpi = boost::mpi;

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
}

// The coverage of `corpus` by vectors for the words `with_vector`, and what
// it printed on stderr.
struct Counted {
  EmbeddingCoverage coverage;
  std::string warnings;
};
Counted count(test_support::HandShare& corpus, const std::vector<std::string>& with_vector) {
  align::EmbeddingTable embeddings;
  for (const std::string& word : with_vector) embeddings.set(corpus.vocabulary.intern(word), {1, 0});
  const RoutedVocabulary words = route_vocabulary(self(), corpus.share, nullptr, corpus.vocabulary,
                                                  entropy::corpus_groups(corpus.share), &embeddings);
  Counted out;
  ::testing::internal::CaptureStderr();
  try {
    out.coverage = count_vector_types(self(), words.global, "vectors.txt", 7, 2);
  } catch (...) {
    ::testing::internal::GetCapturedStderr();  // the capture ends also when it throws
    throw;
  }
  out.warnings = ::testing::internal::GetCapturedStderr();
  return out;
}

TEST(EmbeddingCoverage, WordTypesWithAVectorPerSide) {
  test_support::HandShare corpus;
  corpus.add("a b", "c d");
  corpus.add("b", "a");
  corpus.add("z", "z", schema::bad_line);  // not a word of the corpus
  const Counted c = count(corpus, {"a", "c", "d", "z"});
  EXPECT_EQ(c.coverage.file, "vectors.txt");
  EXPECT_EQ(c.coverage.vectors_in_file, 7u);
  EXPECT_EQ(c.coverage.dimension, 2u);
  EXPECT_EQ(c.coverage.input_types, 2u);  // a b
  EXPECT_EQ(c.coverage.input_types_with_vector, 1u);
  EXPECT_EQ(c.coverage.output_types, 3u);  // c d a
  EXPECT_EQ(c.coverage.output_types_with_vector, 3u);
  EXPECT_DOUBLE_EQ(c.coverage.input_share(), 0.5);
  EXPECT_DOUBLE_EQ(c.coverage.output_share(), 1.0);
  EXPECT_EQ(c.warnings, "");  // half is not under half
}

// Under half: a warning with the share in percent to a tenth, rounded down
// (2 of 7 are 28.57 %: "28.5 %").
TEST(EmbeddingCoverage, ASideUnderHalfCoveredIsWarnedOf) {
  test_support::HandShare corpus;
  corpus.add("a b c d e f g", "a");
  const Counted c = count(corpus, {"a", "b"});
  EXPECT_NE(c.warnings.find("only 28.5 % of the input word types (2 of 7) have a vector in vectors.txt"),
            std::string::npos)
      << c.warnings;
  EXPECT_EQ(c.warnings.find("output"), std::string::npos) << c.warnings;
}

TEST(EmbeddingCoverage, ASideWithoutAnyVectorIsRefused) {
  test_support::HandShare corpus;
  corpus.add("a b", "c");
  try {
    count(corpus, {"c"});
    FAIL() << "a run without an input vector was allowed";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2);
    EXPECT_NE(std::string(e.what()).find("none of the 2 input word types of the corpus has a vector in vectors.txt"),
              std::string::npos)
        << e.what();
  }
}

TEST(EmbeddingCoverage, TheSpreadMassAndItsShare) {
  EmbeddingCoverage coverage;
  coverage.file = "vectors.txt";
  ::testing::internal::CaptureStderr();
  add_spread_words(self(), coverage, 8, 6);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(coverage.spread_words, 8u);
  EXPECT_EQ(coverage.spread_by_vectors, 6u);
  EXPECT_DOUBLE_EQ(coverage.mass_share(), 0.75);

  ::testing::internal::CaptureStderr();
  add_spread_words(self(), coverage, 3, 1);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("only 33.3 % of the alignment mass"), std::string::npos) << warning;
  EXPECT_NE(warning.find("(1 of 3 x\\y words)"), std::string::npos) << warning;
}

TEST(EmbeddingCoverage, NoCountNoShare) {
  const EmbeddingCoverage none;
  EXPECT_TRUE(std::isnan(none.input_share()));
  EXPECT_TRUE(std::isnan(none.output_share()));
  EXPECT_TRUE(std::isnan(none.mass_share()));
  EmbeddingCoverage coverage;
  ::testing::internal::CaptureStderr();
  add_spread_words(self(), coverage, 0, 0);  // no mass to warn of
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace tdcone::engine
