#pragma once
// What every command writes about its run: root attributes, bad-line report.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::cli {

struct LineCounts {
  std::uint64_t lines = 0, scored = 0, flagged = 0;
};

/// Totals over all ranks; also prints the first bad lines on rank 0 and, with
/// --on-bad-line fail, stops every rank at the first one. Collective.
LineCounts account_lines(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                         const std::string& on_bad_line);

/// Root attributes of SPEC §8: `inputs` (absolute paths, one a line) with
/// `input_sizes` (bytes), `input_lines` and `input_fingerprints`
/// (io::LineFingerprint) per file, from `share` (the share read from `inputs`). Collective.
void write_run_attributes(const boost::mpi::communicator& comm, h5::OutputFile& file, const std::string& command,
                          const std::string& config_toml, const std::vector<io::InputFile>& inputs,
                          const text::TokenizedShare& share, const LineCounts& counts);

/// The `/pairs` table (one row per input line of this rank's share), with a
/// progress line per column written on rank 0. Collective.
void write_pairs(const boost::mpi::communicator& comm, h5::OutputFile& file, const text::TokenizedShare& share,
                 const io::FieldSpec& fields, const std::vector<double>& tdcone,
                 const std::vector<std::uint64_t>& rank);

}  // namespace tdcone::cli
