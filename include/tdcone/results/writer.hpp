#pragma once
// Writing a result (docs/spec.md §8): the run's attributes and inputs, /pairs, the
// small per-subset tables (/shards, /sweep, /labels, /combinations), /corpus.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/results/line_accounting.hpp"
#include "tdcone/schema/results.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::results {

/// Sets `attribute` of its object to `value` (the schema names both).
template <class T>
void set_attribute(hdf5::OutputFile& file, const schema::Attribute& attribute, const T& value) {
  file.set_attribute(attribute.object, attribute.name, value);
}

/// The path of `file` as a run records it (`/inputs` `path`): absolute, normalized.
std::string recorded_path(const io::InputFile& file);

/// Root attributes of docs/spec.md §8, and the group `/inputs`: a row per input file,
/// `path` (absolute), `size` (bytes; a stream's: the bytes it delivered,
/// share.file_sizes), `lines` and `fingerprint`
/// (io::LineFingerprint), from `share` (the share read from `inputs`). Collective.
void write_run_attributes(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::string& command,
                          const std::string& config_toml, const std::vector<io::InputFile>& inputs,
                          const text::TokenizedShare& share, const LineCounts& counts);

/// The `/pairs` table (one row per input line of this rank's share; its
/// diversity columns from a share read with ReadOptions::diversity), with a
/// progress line per column written on rank 0. Collective.
void write_pairs(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const text::TokenizedShare& share,
                 const io::FieldSpec& fields, const std::vector<double>& tdcone,
                 const std::vector<std::uint64_t>& rank);

/// A small per-subset table: the rows live on every rank, rank 0 writes them
/// and the other ranks take part in the collective writes.
class SubsetTable {
 public:
  /// Creates `group` (a schema group, "/shards").
  SubsetTable(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const char* group);

  /// Writes `values` as `column`, a column of the table's group.
  void column(const schema::Column& column, const std::vector<double>& values);
  void column(const schema::Column& column, const std::vector<std::uint64_t>& values);
  void column(const schema::Column& column, const std::vector<std::uint8_t>& values);
  void column(const schema::Column& column, const std::vector<std::string>& values);
  /// The `columns` of subsets [first, first + count): tdcone, cond_entropy
  /// (when the table has it), with a reference kl_pq, kl_pu, tdcone_rel, then
  /// bleu and unigram_precision.
  void scores(const schema::ScoreColumns& columns, const std::vector<entropy::SubsetScore>& subsets,
              std::size_t first, std::size_t count, bool with_reference);

 private:
  template <class T>
  void write(const schema::Column& column, const std::vector<T>& values);

  bool writer_;
  hdf5::OutputFile& file_;
};

/// `/labels` from subsets [first, first + names.size()) of `subsets`. Collective.
void write_label_table(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::vector<std::string>& names,
                       const std::vector<entropy::SubsetScore>& subsets, std::size_t first, bool with_reference);

}  // namespace tdcone::results
