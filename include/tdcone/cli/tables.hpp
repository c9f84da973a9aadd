#pragma once
// Small per-subset tables (/shards, /sweep, /labels, /combinations): the rows live on every rank,
// rank 0 writes them and the other ranks take part in the collective writes.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/hdf5/h5file.hpp"

namespace tdcone::cli {

/// Width of a printed column of `names` under `header`.
int name_width(const std::vector<std::string>& names, const std::string& header);

class SubsetTable {
 public:
  SubsetTable(const boost::mpi::communicator& comm, h5::OutputFile& file, std::string group);

  void column(const std::string& name, const std::vector<double>& values);
  void column(const std::string& name, const std::vector<std::uint64_t>& values);
  void column(const std::string& name, const std::vector<std::uint8_t>& values);
  void column(const std::string& name, const std::vector<std::string>& values);
  /// tdcone, cond_entropy (with `cond_entropy`) and, with a reference, kl_pq, kl_pu, tdcone_rel of subsets [first, first + count).
  void scores(const std::vector<entropy::SubsetScore>& subsets, std::size_t first, std::size_t count,
              bool with_reference, bool cond_entropy = false);

 private:
  template <class T>
  void write(const std::string& name, const std::vector<T>& values);

  bool writer_;
  h5::OutputFile& file_;
  std::string group_;
};

}  // namespace tdcone::cli
