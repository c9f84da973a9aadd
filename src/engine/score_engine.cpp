#include "tdcone/engine/score_engine.hpp"

#include <boost/mpi/collectives/all_reduce.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/global_rank.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/engine/accumulate_stage.hpp"
#include "tdcone/engine/memory_budget.hpp"
#include "tdcone/engine/vocabulary_stage.hpp"
#include "tdcone/core/progress.hpp"

namespace tdcone::engine {

namespace {

// Rounds of an eighth of a rank's estimated messages (the estimate counts
// about twice the words sent, so a share makes about four rounds): every
// round merges the new cells of each bucket into it, so a few large rounds
// cost less than many small ones, and buffers that follow the rank's share
// shrink with the rank count. At most kMaxAutomaticRoundBytes (256 MiB) and a
// sixteenth of the budget, so the matrix keeps the rest. Also how much
// larger they would be under any budget (for the advice). The cap binds on
// large shares only, where the matrix is large too: every round merges all
// of it, so there fewer, larger rounds copy it fewer times, for a little
// more memory.
void set_rounds(AccumulateLimits& limits, const EngineConfig& config, const text::TokenizedShare& share) {
  if (config.round_bytes > 0) {
    limits.round_bytes = config.round_bytes;
    limits.round_growth = 1;
    return;
  }
  const std::uint64_t message_bytes = 4 * estimated_message_words(share);
  constexpr std::uint64_t mib = std::uint64_t{1} << 20;
  const std::uint64_t unbounded = std::clamp<std::uint64_t>(message_bytes / 8, mib, kMaxAutomaticRoundBytes);
  limits.round_bytes = std::min(unbounded, std::max(config.memory_bytes / 16, mib));
  limits.round_growth = static_cast<double>(unbounded) / static_cast<double>(limits.round_bytes);
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

EngineResult run_score_engine(const boost::mpi::communicator& comm, text::TokenizedShare& corpus,
                              text::TokenizedShare* reference, const text::Vocabulary& vocabulary,
                              const entropy::PairGroups& groups, const EngineConfig& config) {
  if (corpus.types_released() || (reference && reference->types_released()))
    throw std::logic_error("run_score_engine: a share whose types an earlier run released (score a copy)");
  // The shares stay in memory throughout; a budget too small for them is refused after the first round, measured.
  const std::uint64_t held = config.held_elsewhere_bytes + corpus.bytes() + (reference ? reference->bytes() : 0) + vocabulary.bytes();
  EngineResult result;
  PhaseClock clock(result.phases);
  const bool progress_here = comm.rank() == 0 && !config.quiet;

  align::EmbeddingTable embeddings;
  if (!config.embeddings.empty())
    mpi::collective_step(comm, [&] { embeddings = align::EmbeddingTable::load(config.embeddings, vocabulary); });
  const bool by_embedding = config.align == align::AlignMode::embedding;
  if (by_embedding && config.embeddings.empty() && progress_here)
    std::fprintf(stderr, "tdcone: %s static without %s: uniform over y\\x (SPEC §3)\n", option_name(Option::align).c_str(),
                 option_name(Option::embeddings).c_str());
  const bool with_vectors = by_embedding && !config.embeddings.empty();
  align::PairAligner aligner(config.align, with_vectors ? &embeddings : nullptr);

  enter_phase("vocabulary");
  RoutedVocabulary words = route_vocabulary(comm, corpus, reference, vocabulary, groups, with_vectors ? &embeddings : nullptr);
  if (with_vectors && !config.quiet)  // before the align: a file that covers no word is refused, a poor one warned of, at once
    result.embedding_coverage = count_vector_types(comm, words.global, config.embeddings, embeddings.vectors_in_file(),
                                                   embeddings.dimension());
  std::optional<matrix::MatrixLayout> layout;
  mpi::collective_step(comm, [&] { layout = matrix::MatrixLayout::make(words.global, comm.rank(), groups.group_count()); });
  clock.lap("vocabulary");

  AccumulateLimits limits;
  limits.memory_bytes = config.memory_bytes;
  set_rounds(limits, config, corpus);
  limits.held_bytes = held;
  limits.shared_bytes = vocabulary.bytes();
  limits.machine_bytes = config.machine_bytes;
  if (reference && corpus.total_lines > 0)
    limits.later_pass = static_cast<double>(reference->total_lines) / static_cast<double>(corpus.total_lines);
  std::optional<matrix::PartitionedMatrix> q(std::in_place, *layout, matrix::WeightScale(corpus.total_lines));
  {
    Progress progress(progress_here, "align", "pairs", "all ranks", comm.size());
    const SpreadWords spread = accumulate(comm, corpus, groups.group_of_pair, aligner, words.routes, *q, limits,
                                          progress.callback(), &result.pair_tdcone);
    if (result.embedding_coverage)
      add_spread_words(comm, *result.embedding_coverage, spread.spread_words, spread.spread_by_vectors);
  }
  q->finish();  // before the reference's rounds: its round scratch goes
  std::optional<matrix::PartitionedMatrix> p;
  if (reference) {
    p.emplace(layout->with_groups(1), matrix::WeightScale(reference->total_lines));
    limits.held_bytes += q->bytes() - corpus.released_bytes();
    set_rounds(limits, config, *reference);
    limits.later_pass = 0;
    Progress progress(progress_here, "align reference", "pairs", "all ranks", comm.size());
    accumulate(comm, *reference, {}, aligner, words.routes, *p, limits, progress.callback(), nullptr);
  }
  if (p) p->finish();
  result.cell_updates = boost::mpi::all_reduce(comm, q->cell_updates() + (p ? p->cell_updates() : 0), std::plus<>());
  clock.lap("align");

  {
    Progress progress(progress_here, "score", "rows", "rank 0", comm.size());
    result.subsets =
        entropy::score_subsets(comm, *q, groups, words.global, p ? &*p : nullptr, config.rel_lambda,
                                             progress.callback());
  }
  result.input_types = words.global.count(comm, mpi::WordMarks::corpus_input);
  // Scored: the matrices' memory goes back to the heap before the ranking
  // and the writing, which need much less and reuse its pages
  // (cli::prepare_process keeps large freed blocks in the heap).
  q.reset();
  p.reset();
  clock.lap("score");

  enter_phase("rank");
  mpi::GroupedRanks ranks = mpi::global_ranks_grouped(comm, result.pair_tdcone, corpus.first_pair_id,
                                                      config.rank_groups, config.rank_group_count);
  result.pair_rank = std::move(ranks.overall);
  result.pair_rank_in_group = std::move(ranks.within_group);
  clock.lap("rank");
  return result;
}

}  // namespace tdcone::engine
