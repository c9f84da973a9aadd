#pragma once
// The alignment count matrix of one sentence pair (SPEC §3, paper Algorithms 1 and 2).
#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/text/vocabulary.hpp"

namespace tdcone::align {

enum class AlignMode {
  uniform,   // x\y words spread evenly over (y\x) ∪ {NULL}
  embedding, // "static": x\y words spread over y\x by cosine similarity
};

class EmbeddingTable;

struct Cell {
  text::WordId y;
  double weight;
};

/// The rows of one pair's matrix M: row i is input word rows[i] with cells
/// [row_start[i], row_start[i+1]). Rows are distinct words (NULL = kNullWord).
struct PairMatrix {
  std::vector<text::WordId> rows;
  std::vector<std::uint32_t> row_start{0};
  std::vector<Cell> cells;

  void clear();
  std::span<const Cell> row(std::size_t i) const {
    return {cells.data() + row_start[i], cells.data() + row_start[i + 1]};
  }
};

class PairAligner {
 public:
  /// `embeddings` is used in embedding mode only; null means "no file": uniform over y\x.
  PairAligner(AlignMode mode, const EmbeddingTable* embeddings);

  /// Fills `out` for the pair with input types `x` and output types `y`
  /// (both sorted, unique, without NULL).
  void align(std::span<const text::WordId> x, std::span<const text::WordId> y, PairMatrix& out);

 private:
  AlignMode mode_;
  const EmbeddingTable* embeddings_;
  std::vector<text::WordId> x_only_, y_only_;
  std::vector<double> weights_;
};

}  // namespace tdcone::align
