#pragma once
// The score engine (docs/spec.md §3-5, §9): from tokenized shares to corpus, pair,
// subset and reference scores, as a pipeline of stages, one per file
// (read_stage makes the shares):
//   vocabulary_stage  global word ids, row owners, output-word marks
//   accumulate_stage  align pairs in rounds, route rows to owners, which add
//                     the cells to their sorted buckets (matrix/partitioned_matrix)
//   subset_scores     TD-CONE / TD-CONE_REL of the corpus and every subset
//   global_rank       rank of every pair by its own TD-CONE
// `score`, `sweep` and later commands call it; cli/ parses options and prints.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tdcone/align/pair_alignment.hpp"
#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/engine/embedding_coverage.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::engine {

/// The automatic round (EngineConfig::round_bytes 0) is about an eighth of a
/// rank's messages, at most this and --memory/16.
inline constexpr std::uint64_t kMaxAutomaticRoundBytes = std::uint64_t{256} << 20;

struct EngineConfig {
  align::AlignMode align = align::AlignMode::uniform;  // docs/spec.md §3 rule 2 (--align)
  std::string embeddings;         // static word vectors for --align static; empty: uniform over y\x
  double rel_lambda = 0.1;        // docs/spec.md §4 smoothing of Q (--rel-lambda)
  std::uint64_t memory_bytes = 0; // per rank (--memory): round buffers and the rank's part of M must fit
  std::uint64_t machine_bytes = 0; // this machine's budget per rank (default_memory_budget): the most to advise
  std::uint64_t round_bytes = 0;  // messages a rank sends per exchange round (--round-size); 0: automatic
  // Also rank each pair within its group (rank_groups[i] < rank_group_count;
  // e.g. a label combination), from the same sort as the global rank.
  std::span<const std::uint32_t> rank_groups;
  std::uint32_t rank_group_count = 0;
  // Memory the job holds besides the shares and the vocabulary (e.g. the
  // whole corpus while a sample of it is scored): the budget counts it.
  std::uint64_t held_elsewhere_bytes = 0;
  bool quiet = false;  // no progress lines and no notes: one of many runs on the same corpus
};

struct PhaseTime {
  std::string name;
  double seconds = 0;
};

struct EngineResult {
  std::vector<double> pair_tdcone;            // per local pair; NaN for bad lines
  std::vector<std::uint64_t> pair_rank;       // per local pair
  std::vector<std::uint64_t> pair_rank_in_group;  // per local pair, with EngineConfig::rank_groups (0: in none)
  std::vector<entropy::SubsetScore> subsets;  // subset 0 = the corpus
  std::uint64_t input_types = 0;              // |V_x| of the corpus
  std::uint64_t cell_updates = 0;             // cells added to M (and P) over all ranks, before combining
  std::vector<PhaseTime> phases;              // wall time of each stage
  std::optional<EmbeddingCoverage> embedding_coverage;  // --align static with --embeddings
};

/// Scores `corpus` and the subsets of `groups` (and, with `reference`,
/// TD-CONE_REL of it given each). Both shares intern into `vocabulary`.
/// Their word types are released as they are aligned (release_types_before):
/// the matrix grows into that memory; everything else in the shares stays.
/// An error on any rank throws the same CollectiveError on every rank. Collective.
EngineResult run_score_engine(const boost::mpi::communicator& comm, text::TokenizedShare& corpus,
                              text::TokenizedShare* reference, const text::Vocabulary& vocabulary,
                              const entropy::PairGroups& groups, const EngineConfig& config);

}  // namespace tdcone::engine
