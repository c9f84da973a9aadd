#pragma once
// What `score --by-label` and `balance` share: the corpus's labels, checked
// and reported, and the /labels table of scores per combination and value.
#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/cli/run_report.hpp"
#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/label/labels.hpp"

namespace tdcone::cli {

/// The labels of the corpus `share` (read with `read`), agreed over all
/// ranks. Stops every rank (exit status 1, naming `input` and the first
/// lines) when no usable line has a usable label, or when more than
/// `max_bad_fraction` of them have none; otherwise rank 0 reports the lines
/// flagged 16 and every label with one value only. Collective.
label::PairLabels account_labels(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const text::ReadOptions& read, const LineCounts& counts, double max_bad_fraction,
                                 const std::string& input);

/// The /labels subsets: every combination present, then (with two labels or
/// more) every value of every label, any value of the others.
struct LabelSubsets {
  entropy::PairGroups groups;      // unlabelled pairs: a group in the corpus only
  std::vector<std::string> names;  // per subset after the corpus: "formal|aroused", "formal|*"
  std::vector<std::uint32_t> combination_of_group;  // label::kNoCombination for the unlabelled group
};
LabelSubsets label_subsets(const text::TokenizedShare& share, const label::PairLabels& labels);

/// `/labels` from subsets [first, first + names.size()) of `subsets`. Collective.
void write_label_table(const boost::mpi::communicator& comm, h5::OutputFile& file, const std::vector<std::string>& names,
                       const std::vector<entropy::SubsetScore>& subsets, std::size_t first, bool with_reference);

/// The /labels table on standard output (rank 0).
void print_label_table(const std::vector<std::string>& names, const std::vector<entropy::SubsetScore>& subsets,
                       std::size_t first, bool with_reference);

}  // namespace tdcone::cli
