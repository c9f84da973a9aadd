#include "tdcone/align/pair_alignment.hpp"

#include <cmath>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/core/exact_sum.hpp"
#include "tdcone/core/tdcone.hpp"

namespace tdcone::align {

using text::WordId;

PairAligner::PairAligner(AlignMode mode, const EmbeddingTable* embeddings) : mode_(mode), embeddings_(embeddings) {}

void PairAligner::split(std::span<const WordId> x, std::span<const WordId> y, PairSplit& out) const {
  out.same.clear();
  out.x_only.clear();
  out.y_only.clear();
  out.shares.clear();
  std::size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (j == y.size() || (i < x.size() && x[i] < y[j])) {
      out.x_only.push_back(x[i++]);
    } else if (i == x.size() || y[j] < x[i]) {
      out.y_only.push_back(y[j++]);
    } else {
      out.same.push_back(x[i]);
      ++i, ++j;
    }
  }
  if (mode_ == AlignMode::embedding && !out.y_only.empty())
    for (WordId w : out.x_only) add_shares(w, out.y_only, out.shares);
}

void PairAligner::add_shares(WordId w, std::span<const WordId> y_only, std::vector<double>& out) const {
  bool all_known = embeddings_ != nullptr && embeddings_->vector(w) != nullptr;
  for (WordId t : y_only) all_known = all_known && embeddings_->vector(t) != nullptr;
  // Exact sums: word ids, hence the order of y_only, depend on the ranks.
  const std::size_t first = out.size();
  entropy::ExactSum sum;
  for (WordId t : y_only) {
    out.push_back(all_known ? embeddings_->similarity(w, t) : 1.0);
    sum.add(out.back());
  }
  for (std::size_t k = first; k < out.size(); ++k) out[k] /= sum.value();
}

double PairAligner::pair_tdcone(const PairSplit& split, std::size_t output_types) const {
  // Every row carries mass 1, so H = Σ_rows Σ_cells p·ln(1/p) / (number of rows).
  const std::size_t n_yo = split.y_only.size();
  entropy::ExactSum weighted_log;
  if (mode_ == AlignMode::uniform) {
    weighted_log.add(static_cast<double>(split.x_only.size()) * entropy::log_of_count(n_yo + 1));
  } else {
    for (double p : split.shares) weighted_log.add(-p * std::log(p));
  }
  if (split.null_row()) weighted_log.add(entropy::log_of_count(n_yo));
  const std::size_t rows = split.same.size() + split.x_only.size() + (split.null_row() ? 1 : 0);
  return entropy::tdcone_from_entropy(rows > 0 ? weighted_log.value() / static_cast<double>(rows) : 0.0, output_types);
}

}  // namespace tdcone::align
