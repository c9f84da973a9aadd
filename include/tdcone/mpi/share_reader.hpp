#pragma once
// The collective reader: every rank reads its share of a corpus (io::plan_share)
// into a text::TokenizedShare, and the ranks agree on read errors and number
// the pairs and lines over all ranks.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <functional>
#include <vector>

#include "tdcone/io/input_files.hpp"
#include "tdcone/text/tokenized_share.hpp"
#include "tdcone/text/vocabulary.hpp"

namespace tdcone::mpi {

/// Reads, parses and tokenizes this rank's share of `files` (io::plan_share),
/// numbering pairs globally and interning words into `vocabulary` (shared by
/// a corpus and its reference so that their word ids agree).
/// `on_progress(lines, fraction)` is called now and then.
/// Collective (exchanges line counts). A read error on any rank becomes an
/// mpi::CollectiveError on every rank, and so does a file that is not, after
/// reading, the one recorded at the start (cut, replaced or rewritten while it
/// was read: io::check_unchanged; a file that ends early is caught as it is
/// read). share.file_sizes records each stream's bytes as delivered.
text::TokenizedShare read_share(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& files,
                                const text::ReadOptions& options, text::Vocabulary& vocabulary,
                                const std::function<void(std::uint64_t, double)>& on_progress = {});

/// read_share for a parallel two-file corpus (--src-file / --tgt-file, see
/// io/parallel_files.hpp for how the reading is distributed): src file i
/// pairs line by line with tgt file i; a pair is the one read_share makes of
/// the TSV line "SRC\tTGT" (`paste`), except that <max-line-bytes> applies to
/// each line, and a bad line is reported in the file of the side that is bad.
/// Collective; a src file and its tgt file with different line counts stop
/// every rank (exit status 1) naming both files and both counts, and so does
/// a file changed while it was read, as in read_share.
text::TokenizedShare read_parallel_share(const boost::mpi::communicator& comm,
                                         const std::vector<io::InputFile>& src_files,
                                         const std::vector<io::InputFile>& tgt_files, const text::ReadOptions& options,
                                         text::Vocabulary& vocabulary,
                                         const std::function<void(std::uint64_t, double)>& on_progress = {});

/// The first text::kReportedBadLines of `lines` over all ranks, by pair_id
/// (every rank gets them): share.bad_lines or share.label_problems. Collective.
std::vector<text::BadLine> first_bad_lines(const boost::mpi::communicator& comm, const std::vector<text::BadLine>& lines);

}  // namespace tdcone::mpi
