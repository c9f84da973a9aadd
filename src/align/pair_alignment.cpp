#include "tdcone/align/pair_alignment.hpp"

#include <algorithm>

#include "tdcone/align/embeddings.hpp"

namespace tdcone::align {

using text::kNullWord;
using text::WordId;

void PairMatrix::clear() {
  rows.clear();
  row_start.assign(1, 0);
  cells.clear();
}

PairAligner::PairAligner(AlignMode mode, const EmbeddingTable* embeddings)
    : mode_(mode), embeddings_(embeddings) {}

void PairAligner::align(std::span<const WordId> x, std::span<const WordId> y, PairMatrix& out) {
  out.clear();
  auto close_row = [&](WordId word) {
    out.rows.push_back(word);
    out.row_start.push_back(static_cast<std::uint32_t>(out.cells.size()));
  };

  // Rule 1: shared words align to themselves; collect x\y and y\x on the way.
  x_only_.clear();
  y_only_.clear();
  std::size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (j == y.size() || (i < x.size() && x[i] < y[j])) {
      x_only_.push_back(x[i++]);
    } else if (i == x.size() || y[j] < x[i]) {
      y_only_.push_back(y[j++]);
    } else {
      out.cells.push_back({x[i], 1.0});
      close_row(x[i]);
      ++i, ++j;
    }
  }

  // Rule 2: words only in x spread their unit of mass over y\x (and NULL).
  const bool by_similarity = mode_ == AlignMode::embedding && embeddings_ != nullptr;
  for (WordId w : x_only_) {
    if (mode_ == AlignMode::uniform) {
      const double share = 1.0 / static_cast<double>(y_only_.size() + 1);
      for (WordId t : y_only_) out.cells.push_back({t, share});
      out.cells.push_back({kNullWord, share});
    } else if (y_only_.empty()) {
      out.cells.push_back({kNullWord, 1.0});
    } else {
      bool all_known = by_similarity && embeddings_->vector(w) != nullptr;
      for (WordId t : y_only_) all_known = all_known && embeddings_->vector(t) != nullptr;
      weights_.clear();
      double sum = 0.0;
      for (WordId t : y_only_) {
        weights_.push_back(all_known ? embeddings_->similarity(w, t) : 1.0);
        sum += weights_.back();
      }
      for (std::size_t k = 0; k < y_only_.size(); ++k) out.cells.push_back({y_only_[k], weights_[k] / sum});
    }
    close_row(w);
  }

  // Rule 3: x ⊂ y (strictly): the extra output words come from NULL.
  if (x_only_.empty() && !y_only_.empty()) {
    const double share = 1.0 / static_cast<double>(y_only_.size());
    for (WordId t : y_only_) out.cells.push_back({t, share});
    close_row(kNullWord);
  }
}

}  // namespace tdcone::align
