// EmbeddingTable::load: GloVe / word2vec text files, and the lines it refuses
// (with file:line), so that no bad vector reaches the alignment.
#include "tdcone/align/embeddings.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <string>

#include "tdcone/core/error.hpp"
#include "temp_files.hpp"

namespace tdcone::align {
namespace {

using test_support::TempDir;

// The UsageError message of loading `path` for words a and b, or "no error".
std::string load_error(const std::string& path) {
  text::Vocabulary vocabulary;
  vocabulary.intern("a");
  vocabulary.intern("b");
  try {
    EmbeddingTable::load(path, vocabulary);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(EmbeddingsTest, FileIsReadWithWord2vecHeader) {
  TempDir dir;
  const std::string path = dir.write("vectors.txt", "\xEF\xBB\xBF" "3 2\r\na 1 0\r\nb 1 0\r\nd 1 1\r\nzzz 5 5\r\n");
  text::Vocabulary vocabulary;
  const auto a = vocabulary.intern("a"), b = vocabulary.intern("b"), d = vocabulary.intern("d"),
             e = vocabulary.intern("e");
  const auto table = EmbeddingTable::load(path, vocabulary);
  EXPECT_EQ(table.dimension(), 2u);
  EXPECT_EQ(table.words_found(), 3u);  // zzz is not in the vocabulary, e not in the file
  EXPECT_EQ(table.vector(e), nullptr);
  EXPECT_NEAR(table.similarity(a, b), 1.0, 1e-7);
  EXPECT_NEAR(table.similarity(a, d), 1 / std::sqrt(2.0), 1e-7);
}

TEST(EmbeddingsTest, OneDimensionalVectorsAreNotTakenForAHeader) {
  TempDir dir;
  text::Vocabulary vocabulary;
  const auto a = vocabulary.intern("a");
  const auto table = EmbeddingTable::load(dir.write("glove-1d.txt", "a 0.5\nb -1\n"), vocabulary);
  ASSERT_NE(table.vector(a), nullptr);
  EXPECT_EQ(table.vector(a)[0], 0.5f);
}

TEST(EmbeddingsTest, RaggedVectorsAreRefused) {
  TempDir dir;
  EXPECT_EQ(load_error(dir.write("v", "a 1 0 0\nb 1 0\n")), dir.path("v") + ":2: vector has 2 values, expected 3");
  // The header states the dimension.
  EXPECT_EQ(load_error(dir.write("h", "2 3\na 1 0\nb 1 0\n")), dir.path("h") + ":2: vector has 2 values, expected 3");
}

TEST(EmbeddingsTest, NonFiniteValuesAreRefusedWithFileAndLine) {
  TempDir dir;
  for (const std::string value : {"nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e39", "abc", "0.5x"}) {
    const std::string path = dir.write("v", "a 1 0\nb 0.5 " + value + "\n");
    EXPECT_EQ(load_error(path), path + ":2: not a finite number: '" + value + "'");
  }
  const std::string path = dir.write("all-inf", "a 1 0\nb inf inf\n");  // gave every cosine 0
  EXPECT_EQ(load_error(path), path + ":2: not a finite number: 'inf'");
}

TEST(EmbeddingsTest, StreamsAreRefusedBecauseEveryRankReadsTheFile) {
  TempDir dir;
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, std::string("/proc/self/status")})
    EXPECT_EQ(load_error(path), "embedding file must be a regular file (every rank reads it): " + path);
}

}  // namespace
}  // namespace tdcone::align
