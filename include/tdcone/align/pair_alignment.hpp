#pragma once
// How one sentence pair adds to the alignment count matrix (docs/spec.md §3, paper
// Algorithms 1 and 2), and its own TD-CONE.
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

/// The word sets of one pair: rule 1 aligns `same` to themselves, rule 2
/// spreads each of `x_only` over `y_only` (and NULL), rule 3 gives `y_only`
/// a NULL row when x ⊂ y strictly.
struct PairSplit {
  std::vector<text::WordId> same, x_only, y_only;
  /// Embedding mode with y\x non-empty: for each x\y word in turn, its
  /// weights over y\x (summing to 1); empty otherwise.
  std::vector<double> shares;
  /// Embedding mode: how many of x_only were spread by their cosines (the
  /// word and every word of y\x have a vector); the others evenly over y\x.
  std::size_t spread_by_vectors = 0;

  bool null_row() const { return x_only.empty() && !y_only.empty(); }
};

class PairAligner {
 public:
  /// `embeddings` is used in embedding mode only; null means "no file": uniform over y\x.
  PairAligner(AlignMode mode, const EmbeddingTable* embeddings);

  /// Splits a pair with input types `x` and output types `y` (both sorted,
  /// unique, without NULL), with the shares of embedding mode.
  void split(std::span<const text::WordId> x, std::span<const text::WordId> y, PairSplit& out) const;

  /// True when rule 2 spreads 1/(|y\x|+1) over y\x and NULL (uniform mode).
  bool spreads_uniformly() const { return mode_ == AlignMode::uniform; }

  /// TD-CONE of the pair on its own (|V_y| = `output_types`, its own output
  /// types), clamped to [0, 1]: rounding noise never puts it outside.
  double pair_tdcone(const PairSplit& split, std::size_t output_types) const;

 private:
  /// The weights word `w` of x\y gives each of `y_only` (cosines; uniform
  /// when a vector is missing), normalized, appended to `out`; true when by cosines.
  bool add_shares(text::WordId w, std::span<const text::WordId> y_only, std::vector<double>& out) const;

  AlignMode mode_;
  const EmbeddingTable* embeddings_;
};

}  // namespace tdcone::align
