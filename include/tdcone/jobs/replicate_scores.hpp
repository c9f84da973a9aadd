#pragma once
// Scores of equal-size samples of subsets, replicate by replicate (docs/spec.md
// §5 replicates). A replicate's sampled pairs are copied out of the share and
// scored on their own, so its values are those of a separate run on exactly
// those pairs; the corpus is read once.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <vector>

#include "tdcone/config/job_config.hpp"
#include "tdcone/entropy/replicate_sample.hpp"
#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/jobs/corpus_job.hpp"
#include "tdcone/results/replicate_tables.hpp"

namespace tdcone::jobs {

/// --sample auto: half the smallest non-empty subset s with compared[s]
/// (sizes: global pairs per subset), at least 1.
std::uint64_t automatic_sample(const std::vector<std::uint64_t>& sizes, const std::vector<bool>& compared);

/// Replicates first .. settings.replicates - 1 of the subsets s of `full`
/// with replicated[s], each scored by the engine on its own pairs (with the
/// reference, TD-CONE_REL too). Runs before the job's own scoring: the shares
/// must still hold their word types. Rank 0 shows the progress (phase
/// "replicates of N pairs"). Collective.
entropy::ReplicateScores score_replicates(const boost::mpi::communicator& comm, CorpusJob& job,
                                 const config::EngineSettings& engine, const config::ReferenceConfig& reference,
                                 const entropy::PairGroups& full, const std::vector<bool>& replicated,
                                 const config::SampleConfig& settings, std::uint64_t sample, std::uint32_t first);

/// --at-sizes auto: the powers of two from 128 up to `pairs` (none below 128).
std::vector<std::uint64_t> automatic_sizes(std::uint64_t pairs);

/// The rows of `tables` at each of `sizes`: settings.replicates samples of
/// each size (score_replicates, from replicate 0), and their intervals. Collective.
std::vector<results::SizeCurvePoint> score_curve(const boost::mpi::communicator& comm, CorpusJob& job,
                                                 const config::EngineSettings& engine,
                                                 const config::ReferenceConfig& reference,
                                                 const entropy::PairGroups& full, const std::vector<bool>& replicated,
                                                 const config::SampleConfig& settings,
                                                 const std::vector<std::uint64_t>& sizes,
                                                 const std::vector<results::TableRows>& tables, bool with_reference);

}  // namespace tdcone::jobs
