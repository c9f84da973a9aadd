#pragma once
// Score engine, stage "read": each rank reads and tokenizes its share of the
// input files (byte ranges of plain files, frames of zstd files, whole
// gzip, xz and bzip2 files).
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/io/input_files.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::engine {

/// Reads this rank's share of `files` into word-type sets interned in
/// `vocabulary`, with progress on rank 0 ("read WHAT"); an error on any rank
/// stops all. Collective.
text::TokenizedShare read_files(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& files,
                                const text::ReadOptions& options, text::Vocabulary& vocabulary, const std::string& what);

/// The same for a parallel two-file corpus: src file i pairs with tgt file i
/// line by line (mpi::read_parallel_share).
text::TokenizedShare read_parallel_files(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& src_files,
                                         const std::vector<io::InputFile>& tgt_files, const text::ReadOptions& options,
                                         text::Vocabulary& vocabulary, const std::string& what);

}  // namespace tdcone::engine
