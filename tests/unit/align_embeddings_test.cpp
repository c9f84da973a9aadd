// EmbeddingTable::load: GloVe / word2vec text files, and the lines it refuses
// (with file:line), so that no bad vector reaches the alignment.
#include "tdcone/align/embeddings.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "tdcone/align/pair_alignment.hpp"
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

// A word2vec binary file: the "count dim" header, then "word " and dim
// little-endian float32 a record. Its records were read as ragged text
// lines ("vector has 1 values, expected 3").
std::string word2vec_binary(const std::vector<std::pair<std::string, std::vector<float>>>& vectors) {
  std::string bytes = std::to_string(vectors.size()) + " " + std::to_string(vectors[0].second.size()) + "\n";
  for (const auto& [word, values] : vectors) {
    bytes += word + " ";
    bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
    bytes += "\n";
  }
  return bytes;
}

bool says_binary(const std::string& message, const std::string& path, int line) {
  return message.starts_with(path + ":" + std::to_string(line) + ": not a line of text") &&
         message.find("binary word2vec") != std::string::npos &&
         message.find("save_word2vec_format('" + path + ".txt', binary=False)") != std::string::npos;
}

TEST(EmbeddingsTest, BinaryWord2vecFilesAreNamedAsSuch) {
  TempDir dir;
  const std::string path = dir.write("vectors.bin", word2vec_binary({{"a", {1, 0.5f, 0}}, {"b", {0.25f, -2, 1}}}));
  EXPECT_PRED3(says_binary, load_error(path), path, 2);
  // Of words the text lacks, and split into as many fields as a vector has:
  // the NUL bytes of its first record still tell.
  const std::string nul = dir.write("nul.bin", std::string("2 2\nzz 1\0 2\nyy 1 2\n", 19));
  EXPECT_PRED3(says_binary, load_error(nul), nul, 2);
}

TEST(EmbeddingsTest, BytesThatAreNotUtf8MakeABadLineABinaryOne) {
  TempDir dir;
  const std::string path = dir.write("v", "a 1 0\nb \xBE\x80\x3F\n");
  EXPECT_PRED3(says_binary, load_error(path), path, 2);
  // A good vector of a word in Latin-1 is read as before, and so is a ragged line of text.
  text::Vocabulary vocabulary;
  const auto a = vocabulary.intern("a");
  const auto table = EmbeddingTable::load(dir.write("latin1", "caf\xE9 1 0\na 0 1\n"), vocabulary);
  EXPECT_NE(table.vector(a), nullptr);
  EXPECT_EQ(table.vectors_in_file(), 2u);
  EXPECT_EQ(load_error(dir.write("r", "a 1 0\nb 1\n")), dir.path("r") + ":2: vector has 1 values, expected 2");
}

// Rule 2 under static alignment: an x\y word is spread by cosines when it
// and every word of y\x have a vector, else evenly; the split counts the former.
TEST(EmbeddingsTest, SplitCountsTheWordsSpreadByVectors) {
  EmbeddingTable table;
  table.set(1, {1, 0});
  table.set(2, {0, 1});
  table.set(3, {1, 1});  // 4 has none
  const PairAligner aligner(AlignMode::embedding, &table);
  PairSplit split;
  const auto spread = [&](std::vector<text::WordId> x, std::vector<text::WordId> y) {
    aligner.split(x, y, split);
    return split.spread_by_vectors;
  };
  EXPECT_EQ(spread({1, 2}, {3}), 2u);
  EXPECT_EQ(spread({1, 4}, {3}), 1u);     // 4 is spread evenly
  EXPECT_EQ(spread({1, 2}, {3, 4}), 0u);  // a word of y\x has no vector: both evenly
  EXPECT_EQ(spread({1, 2}, {1}), 0u);     // y\x empty: nothing to spread over
  EXPECT_EQ(spread({1}, {1, 3}), 0u);     // x\y empty
}

}  // namespace
}  // namespace tdcone::align
