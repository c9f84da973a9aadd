#pragma once
// The /selection table of a selection (docs/spec.md §6, §8), built on rank 0 and written.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/select/cynical.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::results {

/// The rows of /selection, on rank 0: ranked lines, then the lines already in
/// the seed, those left out by --where, junk and bad lines, each in input order.
struct SelectionTable {
  std::vector<std::uint64_t> pair_id, rank;
  std::vector<double> delta_h, penalty, gain, cross_entropy, wge;
  std::vector<std::string> root_word;
  std::vector<std::uint8_t> flags;

  void add(std::uint64_t id, double dh, double p, double g, double h, std::string root, double w, std::uint8_t f);
};

/// The table of `selection` (ranked lines of `stats`'s lexicon), then the
/// lines of `available` at `junk` (this rank's junk, bad lines, lines
/// already in the seed and lines left out) of every rank; with `stop`, every line past stop_rank
/// flagged not selected. Collective: the rows are on rank 0.
SelectionTable selection_table(const boost::mpi::communicator& comm, const select::Selection& selection,
                               const select::Statistics& stats, const text::TokenizedShare& available,
                               const std::vector<std::size_t>& junk, bool stop);

/// Writes /selection: `table` (rank 0's; `rows` in all) and the selection's figures. Collective.
void write_selection(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const SelectionTable& table,
                     std::uint64_t rows, const select::Selection& selection, const select::Statistics& stats,
                     std::uint64_t in_seed, std::uint64_t left_out);

}  // namespace tdcone::results
