#include "tdcone/entropy/share_scoring.hpp"

#include <limits>

#include "tdcone/entropy/tdcone.hpp"
#include "tdcone/mpi/global_vocabulary.hpp"

namespace tdcone::entropy {

ShareAlignment align_share(const text::TokenizedShare& share, align::PairAligner& aligner) {
  ShareAlignment result;
  result.pair_tdcone.assign(share.size(), std::numeric_limits<double>::quiet_NaN());
  result.word_sides.assign(share.vocabulary.size(), 0);
  align::PairMatrix pair;
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (share.flags[i] & text::bad_line) continue;
    const auto x = share.src_types(i);
    const auto y = share.tgt_types(i);
    aligner.align(x, y, pair);
    result.pair_tdcone[i] = pair_tdcone(pair, y.size());
    result.matrix.add(pair);
    for (auto w : x) result.word_sides[w] |= mpi::corpus_input;
    for (auto w : y) result.word_sides[w] |= mpi::corpus_output;
    ++result.scored;
  }
  return result;
}

}  // namespace tdcone::entropy
