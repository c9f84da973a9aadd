#pragma once
// Score engine, stage "align": aligns the pairs of a rank's share in rounds
// and sends each pair's rows to the ranks that own them, which add the
// cells to their part of M. A message (matrix/pair_message.hpp) carries a
// pair's y\x once and its row words, not every cell.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "tdcone/align/pair_alignment.hpp"
#include "tdcone/matrix/partitioned_matrix.hpp"
#include "tdcone/core/progress_callback.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::engine {

/// Where each local word goes: its global id and the rank owning its row.
struct WordRoutes {
  std::span<const std::uint32_t> global_id;  // GlobalVocabulary::global_id
  std::vector<std::uint32_t> owner;
};

struct AccumulateLimits {
  std::uint64_t round_bytes = 64 << 20;  // one round's send buffers (about the same is received)
  std::uint64_t memory_bytes = 0;        // --memory: what may be held at once (0: no check)
  std::uint64_t held_bytes = 0;          // already held outside the matrix (the tokenized shares)
  std::uint64_t shared_bytes = 0;        // of held_bytes, what every rank holds (the vocabulary)
  double round_growth = 1;               // rounds of --memory/16 grow this much at most under a larger budget
  double later_pass = 0;                 // a later pass's pairs (the reference), in this pass's: its matrix must fit too
  std::uint64_t machine_bytes = 0;       // this machine's budget per rank, the most to advise
};

/// Rule 2's mass in a rank's pairs added to the matrix: the x\y words of
/// pairs with a non-empty y\x (a unit each), and of them those spread by
/// their cosines (align::PairSplit::spread_by_vectors).
struct SpreadWords {
  std::uint64_t spread_words = 0;
  std::uint64_t spread_by_vectors = 0;
};

/// About twice the words of all the messages the pairs of `share` send (each
/// pair's types and a header, y\x to about two owners): what the rounds are
/// sized from, and the most the first round's buffers reserve.
std::uint64_t estimated_message_words(const text::TokenizedShare& share);

/// Adds every scored pair of `share` to `matrix`, pair i in group
/// group_of_pair[i] (all in group 0 when it is empty). With `pair_tdcone`,
/// also each pair's own TD-CONE (NaN for bad lines). The types of the pairs
/// already sent are released round by round (release_types_before). Throws a CollectiveError
/// on every rank when any rank fails, e.g. when its part of the matrix
/// outgrows the budget (exit status 2, with the memory or ranks it needs).
/// Returns this rank's spread words (not summed over the ranks). Collective.
SpreadWords accumulate(const boost::mpi::communicator& comm, text::TokenizedShare& share,
                       std::span<const std::uint32_t> group_of_pair, const align::PairAligner& aligner,
                       const WordRoutes& routes, matrix::PartitionedMatrix& matrix, const AccumulateLimits& limits,
                       const ProgressCallback& progress, std::vector<double>* pair_tdcone);

}  // namespace tdcone::engine
