#include "tdcone/results/diversity_columns.hpp"

#include <stdexcept>

#include "tdcone/core/error.hpp"

#include "tdcone/results/writer.hpp"

namespace tdcone::results {

std::vector<double> pair_measure(const text::TokenizedShare& share, PairMeasure measure) {
  if (share.diversity.size() != share.size()) throw std::logic_error("pair_measure: a share read without diversity");
  std::vector<double> values(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) {
    const std::uint32_t tgt_len = share.tgt_len[i];
    switch (measure) {
      case PairMeasure::bleu: values[i] = text::pair_bleu(share.diversity.matches(i, tgt_len), tgt_len); break;
      case PairMeasure::unigram_precision:
        values[i] = text::pair_unigram_precision(share.diversity.matches(i, tgt_len), tgt_len);
        break;
      case PairMeasure::len_ratio:  // a bad line has two empty sides: NaN
        values[i] = text::length_ratio(share.src_len[i], tgt_len);
        break;
    }
  }
  return values;
}

std::string length_buckets_problem(const std::vector<std::uint64_t>& bounds) {
  std::string given;
  for (std::uint64_t bound : bounds) {
    if (!given.empty()) given += ',';
    given += std::to_string(bound);
  }
  for (std::size_t k = 1; k < bounds.size(); ++k)
    if (bounds[k] <= bounds[k - 1])
      return cat(given, bounds[k] == bounds[k - 1] ? " gives " + std::to_string(bounds[k]) + " twice" : " is not increasing",
                 ": give each bucket's largest input length in tokens once, in increasing order (e.g. 5,10,20,40)");
  return {};
}

void write_length_table(const boost::mpi::communicator& comm, hdf5::OutputFile& file,
                        const std::vector<std::uint64_t>& bounds, const std::vector<entropy::SubsetScore>& subsets,
                        std::size_t first, bool with_reference) {
  const std::size_t buckets = bounds.size() + 1;
  std::vector<std::uint64_t> max_src_len = bounds, pairs;
  max_src_len.push_back(kOverflowBound);
  for (std::size_t s = first; s < first + buckets; ++s) pairs.push_back(subsets[s].n_pairs);
  SubsetTable table(comm, file, schema::lengths::group);
  table.column(schema::lengths::max_src_len, max_src_len);
  table.column(schema::lengths::n_pairs, pairs);
  table.scores(schema::lengths::scores, subsets, first, buckets, with_reference);
}

}  // namespace tdcone::results
