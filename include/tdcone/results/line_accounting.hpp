#pragma once
// The lines of an input, counted over all ranks: bad lines reported and
// handled per --on-bad-line, and the labels of a corpus checked and reported.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/io/input_files.hpp"
#include "tdcone/label/labels.hpp"
#include "tdcone/config/job_config.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::results {

/// The lines of an input over all ranks: all of them, the usable (scored) and the bad (flagged) ones.
struct LineCounts {
  std::uint64_t lines = 0, scored = 0, flagged = 0;
};

/// "a.tsv, b.tsv (the corpus, <input>)": an input named in messages.
std::string describe_input(const std::vector<io::InputFile>& files, const std::string& what);
/// " (first: a.tsv:1: invalid JSON; a.tsv:2: missing column 2; ...)": the first three of `first`.
std::string first_reasons(const std::vector<text::BadLine>& first);
/// When a line of `first` is invalid UTF-8: "invalid UTF-8: if a.tsv is
/// Latin-1, convert it: iconv -f latin1 -t utf-8 a.tsv > a.tsv.utf8"; else "".
std::string encoding_hint(const std::vector<text::BadLine>& first);
/// "  a.tsv:1: invalid JSON", a line each, on standard error; then the encoding_hint, if any.
void list_lines(const std::vector<text::BadLine>& lines);

/// Totals over all ranks of an input `what` ("the corpus, <input>") read from
/// `files`. Stops every rank (exit status 1, naming the files and the first
/// bad lines) when the input has no usable line (no line at all, or only bad
/// ones), when more than `max_bad_fraction` of its lines are bad, or, with
/// --on-bad-line fail, at the first bad line. Otherwise rank 0 lists the first
/// bad lines on standard error (with --quiet only their count). Every rank
/// decides from the same global counts. Collective.
LineCounts account_lines(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                         const std::vector<io::InputFile>& files, const config::BadLinePolicy& policy, const std::string& what);

/// The labels of the corpus `share` (read with `read`), agreed over all
/// ranks. Stops every rank (exit status 1, naming `input` and the first
/// lines) when no usable line has a usable label, or when more than
/// `max_bad_fraction` of them have none; otherwise rank 0 reports the lines
/// flagged 16 and every label with one value only. Collective.
label::PairLabels account_labels(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const text::ReadOptions& read, const LineCounts& counts, double max_bad_fraction,
                                 const std::string& input);

}  // namespace tdcone::results
