#pragma once
// Static word embeddings (GloVe / word2vec text format) for --align static.
#include <string>
#include <vector>

#include "tdcone/text/vocabulary.hpp"

namespace tdcone::align {

/// Vectors for the words of one vocabulary; other words of the
/// file are not kept, so memory follows the rank's vocabulary.
class EmbeddingTable {
 public:
  EmbeddingTable() = default;

  /// Reads `path` (plain or zstd, "word v1 ... vd" per line, an optional
  /// word2vec "count dim" header) keeping the words present in `vocabulary`
  /// (first occurrence wins). Throws UsageError/IoError naming file:line for
  /// a vector of another dimension or a value that is not a finite float (of
  /// a kept word: the others are not parsed), and UsageError for a stream.
  /// A line that is not text (a NUL byte or bytes that are not UTF-8, as a
  /// binary word2vec file's records) is refused as a binary file, with how
  /// to convert it.
  static EmbeddingTable load(const std::string& path, const text::Vocabulary& vocabulary);

  /// The vector of `word`, or nullptr when it has none.
  const float* vector(text::WordId word) const;
  /// max(cos(a, b), 1e-6) for two words that both have vectors.
  double similarity(text::WordId a, text::WordId b) const;

  std::size_t dimension() const { return dimension_; }
  std::size_t words_found() const { return found_; }
  /// Vectors the file holds (of any word; its header not counted).
  std::size_t vectors_in_file() const { return vectors_in_file_; }

  /// Sets the vector of `word` (the loader and tests).
  void set(text::WordId word, std::vector<float> values);

 private:
  std::size_t dimension_ = 0;
  std::size_t found_ = 0;
  std::size_t vectors_in_file_ = 0;
  std::vector<std::int64_t> row_of_;  // per word id: row in values_, -1 if none
  std::vector<float> values_;   // as read from the file
  std::vector<double> norms_;   // per row, so cosines are computed in double
};

}  // namespace tdcone::align
