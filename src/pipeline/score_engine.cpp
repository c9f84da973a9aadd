#include "tdcone/pipeline/score_engine.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/error.hpp"
#include "tdcone/mpi/global_rank.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/pipeline/accumulate_stage.hpp"
#include "tdcone/pipeline/memory_budget.hpp"
#include "tdcone/pipeline/vocabulary_stage.hpp"
#include "tdcone/progress.hpp"

namespace tdcone::pipeline {

namespace {

// About eight rounds a rank: every round merges the new cells of each bucket
// into it, so a few large rounds cost less than many small ones, and buffers
// that follow the rank's share shrink with the rank count. At most 128 MiB
// and a sixteenth of the budget, so the matrix keeps the rest.
std::uint64_t round_bytes(const EngineConfig& config, const text::TokenizedShare& share) {
  if (config.round_bytes > 0) return config.round_bytes;
  // Messages are 4-byte words: each pair's types and a header, y\x to about two owners.
  const std::uint64_t message_bytes = 8 * (share.types.size() + 6 * share.size());
  constexpr std::uint64_t mib = std::uint64_t{1} << 20;
  return std::clamp<std::uint64_t>(message_bytes / 8, mib, std::max(std::min(config.memory_bytes / 16, 128 * mib), mib));
}

// The shares stay in memory throughout: they alone must leave as much room again for the matrix.
void check_held_bytes_fit(const boost::mpi::communicator& comm, std::uint64_t held, std::uint64_t budget) {
  if (budget == 0 || held * 2 <= budget) return;
  throw UsageError(cat("--memory ", format_bytes(budget), " per rank is too small: rank ", comm.rank(), " holds ",
                       format_bytes(held), " of tokenized pairs before any matrix cell; ",
                       budget_advice(comm.size(), 2.0 * held, budget)));
}

class PhaseClock {
 public:
  explicit PhaseClock(std::vector<PhaseTime>& phases) : phases_(phases) {}
  void lap(const std::string& name) {
    const double now = clock_.seconds();
    phases_.push_back({name, now - last_});
    last_ = now;
  }

 private:
  std::vector<PhaseTime>& phases_;
  Stopwatch clock_;
  double last_ = 0;
};

}  // namespace

EngineResult run_score_engine(const boost::mpi::communicator& comm, const text::TokenizedShare& corpus,
                              const text::TokenizedShare* reference, const text::Vocabulary& vocabulary,
                              const entropy::PairGroups& groups, const EngineConfig& config) {
  const std::uint64_t held = corpus.bytes() + (reference ? reference->bytes() : 0) + vocabulary.bytes();
  mpi::collective_step(comm, [&] { check_held_bytes_fit(comm, held, config.memory_bytes); });
  EngineResult result;
  PhaseClock clock(result.phases);
  const bool progress_here = comm.rank() == 0;

  align::EmbeddingTable embeddings;
  if (!config.embeddings.empty())
    mpi::collective_step(comm, [&] { embeddings = align::EmbeddingTable::load(config.embeddings, vocabulary); });
  const bool by_embedding = config.align == align::AlignMode::embedding;
  if (by_embedding && config.embeddings.empty() && comm.rank() == 0)
    std::fprintf(stderr, "tdcone: --align static without --embeddings: uniform over y\\x (SPEC §3)\n");
  align::PairAligner aligner(config.align, by_embedding && !config.embeddings.empty() ? &embeddings : nullptr);

  enter_phase("vocabulary");
  RoutedVocabulary words = route_vocabulary(comm, corpus, reference, vocabulary, groups);
  std::optional<mpi::MatrixLayout> layout;
  mpi::collective_step(comm, [&] { layout = mpi::MatrixLayout::make(words.global, comm.rank(), groups.group_count()); });
  clock.lap("vocabulary");

  AccumulateLimits limits;
  limits.memory_bytes = config.memory_bytes;
  limits.round_bytes = round_bytes(config, corpus);
  limits.held_bytes = held;
  mpi::PartitionedMatrix q(*layout, mpi::WeightScale(corpus.total_lines));
  {
    Progress progress(progress_here, "align", "pairs", "all ranks", comm.size());
    accumulate(comm, corpus, groups.group_of_pair, aligner, words.routes, q, limits, progress, &result.pair_tdcone);
  }
  std::optional<mpi::PartitionedMatrix> p;
  if (reference) {
    p.emplace(layout->with_groups(1), mpi::WeightScale(reference->total_lines));
    limits.held_bytes += q.bytes();
    limits.round_bytes = round_bytes(config, *reference);
    Progress progress(progress_here, "align reference", "pairs", "all ranks", comm.size());
    accumulate(comm, *reference, {}, aligner, words.routes, *p, limits, progress, nullptr);
  }
  q.finish();
  if (p) p->finish();
  clock.lap("align");

  {
    Progress progress(progress_here, "score", "rows", "rank 0", comm.size());
    result.subsets =
        entropy::score_subsets(comm, q, groups, words.global, p ? &*p : nullptr, config.rel_lambda, &progress);
  }
  result.input_types = words.global.count(comm, mpi::WordMarks::corpus_input);
  clock.lap("score");

  enter_phase("rank");
  mpi::GroupedRanks ranks = mpi::global_ranks_grouped(comm, result.pair_tdcone, corpus.first_pair_id,
                                                      config.rank_groups, config.rank_group_count);
  result.pair_rank = std::move(ranks.overall);
  result.pair_rank_in_group = std::move(ranks.within_group);
  clock.lap("rank");
  return result;
}

}  // namespace tdcone::pipeline
