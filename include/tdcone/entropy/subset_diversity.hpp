#pragma once
// Lexical diversity of the corpus and of every subset (issue 22): the n-gram
// sums of their pairs, integers summed over ranks, so BLEU and unigram
// precision have the same bits on any rank count.
#include <mpi.h>

#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::entropy {

/// Sets `diversity` of each of `subsets` (one per subset of `groups`) to the
/// sums of its scored pairs, from `share`'s PairDiversity (read with
/// ReadOptions::diversity; without it the sums stay empty). Collective.
void add_subset_diversity(MPI_Comm comm, const text::TokenizedShare& share, const PairGroups& groups,
                          std::vector<SubsetScore>& subsets);

}  // namespace tdcone::entropy
