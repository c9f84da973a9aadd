#include "tdcone/align/pair_alignment.hpp"

#include <algorithm>
#include <cmath>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/core/exact_sum.hpp"
#include "tdcone/core/tdcone.hpp"

namespace tdcone::align {

using text::WordId;

PairAligner::PairAligner(AlignMode mode, const EmbeddingTable* embeddings) : mode_(mode), embeddings_(embeddings) {}

void PairAligner::split(std::span<const WordId> x, std::span<const WordId> y, PairSplit& out) const {
  // Without a branch on the comparison: each step writes x's word to x\y
  // and x∩y and y's word to y\x, and only the list the comparison picks
  // keeps its word (its count grows). Which list that is is a coin toss on
  // real pairs, so a branch on it would be mispredicted often.
  out.same.resize(std::min(x.size(), y.size()));
  out.x_only.resize(x.size());
  out.y_only.resize(y.size());
  out.shares.clear();
  out.spread_by_vectors = 0;
  WordId* same = out.same.data();
  WordId* x_only = out.x_only.data();
  WordId* y_only = out.y_only.data();
  std::size_t i = 0, j = 0, n_same = 0, n_x = 0, n_y = 0;
  while (i < x.size() && j < y.size()) {
    const WordId a = x[i], b = y[j];
    const bool x_first = a < b, y_first = b < a;
    x_only[n_x] = a;
    y_only[n_y] = b;
    same[n_same] = a;
    n_x += x_first;
    n_y += y_first;
    n_same += !x_first && !y_first;
    i += !y_first;
    j += !x_first;
  }
  for (; i < x.size(); ++i) x_only[n_x++] = x[i];
  for (; j < y.size(); ++j) y_only[n_y++] = y[j];
  out.same.resize(n_same);
  out.x_only.resize(n_x);
  out.y_only.resize(n_y);
  if (mode_ == AlignMode::embedding && !out.y_only.empty())
    for (WordId w : out.x_only) out.spread_by_vectors += add_shares(w, out.y_only, out.shares);
}

bool PairAligner::add_shares(WordId w, std::span<const WordId> y_only, std::vector<double>& out) const {
  bool all_known = embeddings_ != nullptr && embeddings_->vector(w) != nullptr;
  for (WordId t : y_only) all_known = all_known && embeddings_->vector(t) != nullptr;
  // Exact sums: word ids, hence the order of y_only, depend on the ranks.
  const std::size_t first = out.size();
  ExactSum sum;
  for (WordId t : y_only) {
    out.push_back(all_known ? embeddings_->similarity(w, t) : 1.0);
    sum.add(out.back());
  }
  for (std::size_t k = first; k < out.size(); ++k) out[k] /= sum.value();
  return all_known;
}

double PairAligner::pair_tdcone(const PairSplit& split, std::size_t output_types) const {
  // Every row carries mass 1, so H = Σ_rows Σ_cells p·ln(1/p) / (number of rows).
  const std::size_t n_yo = split.y_only.size();
  ExactSum weighted_log;
  if (mode_ == AlignMode::uniform) {
    weighted_log.add(static_cast<double>(split.x_only.size()) * log_of_count(n_yo + 1));
  } else {
    for (double p : split.shares) weighted_log.add(-p * std::log(p));
  }
  if (split.null_row()) weighted_log.add(log_of_count(n_yo));
  const std::size_t rows = split.same.size() + split.x_only.size() + (split.null_row() ? 1 : 0);
  const double tdcone =
      tdcone_from_entropy(rows > 0 ? weighted_log.value() / static_cast<double>(rows) : 0.0, output_types);
  // A pair's TD-CONE lies in [0, 1]; the roundings of the logarithms and of the
  // shares can put it a few ulps outside, where a filter such as tdcone<=1
  // would drop the pair.
  return std::clamp(tdcone, 0.0, 1.0);
}

}  // namespace tdcone::align
