#pragma once
// How much of a static run the vectors of --embeddings decided: the word
// types of the corpus with a vector, and the alignment mass spread by
// cosines rather than evenly. Counts over all ranks, so the same on any
// rank count.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <string>

#include "tdcone/mpi/global_vocabulary.hpp"

namespace tdcone::engine {

struct EmbeddingCoverage {
  std::string file;                 // --embeddings
  std::uint64_t vectors_in_file = 0;
  std::uint64_t dimension = 0;
  // Distinct word types of the corpus's scored lines, per side, and of them those with a vector.
  std::uint64_t input_types = 0, input_types_with_vector = 0;
  std::uint64_t output_types = 0, output_types_with_vector = 0;
  // Rule 2's mass: each x\y word of a pair in the matrix whose y\x is not
  // empty spreads a unit over y\x, by cosines when it and every word of y\x
  // have a vector (spread_by_vectors), else evenly.
  std::uint64_t spread_words = 0, spread_by_vectors = 0;

  // The shares of the counts above; NaN when the count under them is 0.
  double input_share() const;
  double output_share() const;
  double mass_share() const;
};

/// The corpus's word types with a vector (WordMarks::with_vector), counted
/// over all ranks. Refuses the run (UsageError on every rank) when a side
/// with words has none with a vector: no pair could then be aligned by its
/// vectors. Rank 0 warns of a side under half covered. Collective.
EmbeddingCoverage count_vector_types(const boost::mpi::communicator& comm, const mpi::GlobalVocabulary& words,
                                     const std::string& file, std::uint64_t vectors_in_file, std::uint64_t dimension);

/// Adds this rank's spread words (of the corpus's pairs) summed over all
/// ranks; rank 0 warns when under half of the mass was spread by vectors. Collective.
void add_spread_words(const boost::mpi::communicator& comm, EmbeddingCoverage& coverage, std::uint64_t spread_words,
                      std::uint64_t spread_by_vectors);

}  // namespace tdcone::engine
