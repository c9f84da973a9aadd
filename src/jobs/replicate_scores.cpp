#include "tdcone/jobs/replicate_scores.hpp"

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/scan.hpp>

#include <algorithm>
#include <functional>

#include "tdcone/core/activity.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/entropy/replicate_sample.hpp"
#include "tdcone/entropy/subset_diversity.hpp"
#include "tdcone/mpi/guard.hpp"

namespace tdcone::jobs {

std::uint64_t automatic_sample(const std::vector<std::uint64_t>& sizes, const std::vector<bool>& compared) {
  std::uint64_t smallest = 0;
  for (std::size_t s = 0; s < sizes.size(); ++s)
    if (compared[s] && sizes[s] > 0 && (smallest == 0 || sizes[s] < smallest)) smallest = sizes[s];
  return std::max<std::uint64_t>(1, smallest / 2);
}

entropy::ReplicateScores score_replicates(const boost::mpi::communicator& comm, CorpusJob& job,
                                 const config::EngineSettings& engine, const config::ReferenceConfig& reference,
                                 const entropy::PairGroups& full, const std::vector<bool>& replicated,
                                 const config::SampleConfig& settings, std::uint64_t sample, std::uint32_t first) {
  entropy::ReplicateScores result;
  result.sample = sample;
  result.replicates = settings.replicates;
  result.seed = settings.seed;
  result.first = first;
  engine::EngineConfig config = engine_config(engine, reference, engine::default_memory_budget(comm));
  config.quiet = true;
  // The whole corpus stays in memory while a sample of it is scored.
  config.held_elsewhere_bytes = job.share.bytes() + (job.reference ? job.reference->bytes() : 0);
  Progress progress(comm.rank() == 0, cat("replicates of ", sample, " pairs"), "replicates", "all ranks", comm.size());
  for (std::uint32_t r = first; r < settings.replicates; ++r) {
    enter_phase("replicates");
    progress.update(r - first, static_cast<double>(r - first) / static_cast<double>(settings.replicates - first));
    entropy::ReplicateSample drawn;
    mpi::collective_step(comm, [&] {
      drawn = entropy::replicate_sample(comm, job.share, full, replicated, sample, settings.seed, r);
    });
    text::TokenizedShare pairs = job.share.copy_of_pairs(drawn.pairs);
    const std::uint64_t mine = drawn.pairs.size();
    pairs.first_pair_id = boost::mpi::scan(comm, mine, std::plus<>()) - mine;
    pairs.total_lines = boost::mpi::all_reduce(comm, mine, std::plus<>());
    entropy::PairGroups groups;  // the drawn groups, a group per copied pair
    groups.subset_count = drawn.groups.subset_count;
    groups.subsets_of_group = drawn.groups.subsets_of_group;
    groups.group_of_pair.reserve(drawn.pairs.size());
    for (std::size_t i : drawn.pairs) groups.group_of_pair.push_back(drawn.groups.group_of_pair[i]);
    // The engine gives a share's word types back as it aligns them: it scores a copy of the reference.
    std::optional<text::TokenizedShare> reference_copy;
    if (job.reference) reference_copy = *job.reference;
    engine::EngineResult scored = engine::run_score_engine(comm, pairs, reference_copy ? &*reference_copy : nullptr,
                                                           job.vocabulary, groups, config);
    entropy::add_subset_diversity(comm, job.share, drawn.groups, scored.subsets);
    result.sampled = drawn.sampled;
    result.of_replicate.push_back(std::move(scored.subsets));
  }
  progress.finish(settings.replicates - first);
  return result;
}

std::vector<std::uint64_t> automatic_sizes(std::uint64_t pairs) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = 128; size <= pairs; size *= 2) sizes.push_back(size);
  return sizes;
}

std::vector<results::SizeCurvePoint> score_curve(const boost::mpi::communicator& comm, CorpusJob& job,
                                                 const config::EngineSettings& engine,
                                                 const config::ReferenceConfig& reference,
                                                 const entropy::PairGroups& full, const std::vector<bool>& replicated,
                                                 const config::SampleConfig& settings,
                                                 const std::vector<std::uint64_t>& sizes,
                                                 const std::vector<results::TableRows>& tables, bool with_reference) {
  std::vector<results::SizeCurvePoint> curve;
  for (std::uint64_t size : sizes) {
    results::SizeCurvePoint& point = curve.emplace_back();
    point.size = size;
    point.replicates = score_replicates(comm, job, engine, reference, full, replicated, settings, size, 0);
    for (const results::TableRows& table : tables)
      point.tables.push_back(results::table_intervals(point.replicates, table, with_reference));
  }
  return curve;
}

}  // namespace tdcone::jobs
