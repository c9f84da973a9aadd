#pragma once
// What a command prints on standard output when it is done (rank 0).
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/jobs/corpus_job.hpp"

namespace tdcone::cli {

/// Width of a printed column of `names` under `header`.
int name_width(const std::vector<std::string>& names, const std::string& header);

/// The summary of a job on a corpus: its lines, scores, times and memory. Collective (the peak memory of every rank).
void print_summary(const boost::mpi::communicator& comm, const std::string& command, const std::string& output,
                   const results::LineCounts& counts, const jobs::JobScores& scores, bool with_reference,
                   double seconds);

/// The duplicates (--dedup) and, with a reference, the pairs in it (rank 0).
void print_duplicates(const engine::DuplicateCounts& counts);

/// The /labels table (rank 0).
void print_label_table(const std::vector<std::string>& names, const std::vector<entropy::SubsetScore>& subsets,
                       std::size_t first, bool with_reference);

/// Bucket k of input lengths under `bounds`, as the /lengths table names it: "<= 10", "11-20", "> 20".
std::string length_bucket_name(const std::vector<std::uint64_t>& bounds, std::size_t k);

/// The /lengths table (rank 0): a row per bucket of input lengths, the overflow bucket last.
void print_length_table(const std::vector<std::uint64_t>& bounds, const std::vector<entropy::SubsetScore>& subsets,
                        std::size_t first, bool with_reference);

}  // namespace tdcone::cli
