#pragma once
// The lexical diversity a result holds (issue 22): the per-pair columns of
// /pairs and the /lengths table of score --length-buckets.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::results {

enum class PairMeasure { bleu, unigram_precision, len_ratio };

/// `measure` of every local pair of `share` (read with ReadOptions::diversity).
std::vector<double> pair_measure(const text::TokenizedShare& share, PairMeasure measure);

/// Why `bounds` cannot be the buckets of --length-buckets ("" when they can):
/// they must be increasing, each given once.
std::string length_buckets_problem(const std::vector<std::uint64_t>& bounds);

/// The bound of the overflow bucket in `max_src_len`.
inline constexpr std::uint64_t kOverflowBound = ~std::uint64_t{0};

/// `/lengths` from subsets [first, first + bounds.size() + 1) of `subsets`:
/// a row per bucket, the overflow bucket last. Collective.
void write_length_table(const boost::mpi::communicator& comm, hdf5::OutputFile& file,
                        const std::vector<std::uint64_t>& bounds, const std::vector<entropy::SubsetScore>& subsets,
                        std::size_t first, bool with_reference);

}  // namespace tdcone::results
