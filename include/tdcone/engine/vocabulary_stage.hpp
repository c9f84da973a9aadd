#pragma once
// Score engine, stage "vocabulary": global word ids, the owner of every
// row, and the marks that count |V_y| of every subset without cell traffic.
#include <boost/mpi/communicator.hpp>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/mpi/global_vocabulary.hpp"
#include "tdcone/engine/accumulate_stage.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::engine {

struct RoutedVocabulary {
  mpi::GlobalVocabulary global;
  WordRoutes routes;
};

/// Marks the words of the scored pairs of `corpus` (input, output, and the
/// output words of each group) and of `reference`, and with `embeddings`
/// the words that have a vector, then numbers them globally. Collective.
RoutedVocabulary route_vocabulary(const boost::mpi::communicator& comm, const text::TokenizedShare& corpus,
                                  const text::TokenizedShare* reference, const text::Vocabulary& vocabulary,
                                  const entropy::PairGroups& groups, const align::EmbeddingTable* embeddings = nullptr);

}  // namespace tdcone::engine
