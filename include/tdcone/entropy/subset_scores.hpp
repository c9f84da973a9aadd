#pragma once
// TD-CONE (docs/spec.md §3) and TD-CONE_REL (docs/spec.md §4) of the corpus and of subsets
// of it (shards, threshold subsets), from one row-partitioned matrix.
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "tdcone/matrix/partitioned_matrix.hpp"
#include "tdcone/core/progress_callback.hpp"
#include "tdcone/text/lexical_diversity.hpp"

namespace tdcone::entropy {

inline constexpr std::uint32_t kNoGroup = std::numeric_limits<std::uint32_t>::max();

/// Pairs fall into groups; a subset is a union of groups. Subset 0 is the
/// whole corpus, so every group belongs to it.
struct PairGroups {
  std::vector<std::uint32_t> group_of_pair;                 // per local pair; kNoGroup: bad line
  std::vector<std::vector<std::uint32_t>> subsets_of_group;  // sorted subset indices
  std::size_t subset_count = 1;

  std::size_t group_count() const { return subsets_of_group.size(); }
};

struct SubsetScore {
  std::uint64_t n_pairs = 0;       // scored pairs in the subset
  std::uint64_t nnz = 0;           // non-zero cells of its matrix
  std::uint64_t output_types = 0;  // |V_y|, NULL not counted
  // A subset without pairs has no scores: NaN here and in kl_* (docs/spec.md §9).
  double total = 0.0;              // T = Σ M
  double cond_entropy = std::numeric_limits<double>::quiet_NaN();  // H(Y|X), nats
  double tdcone = std::numeric_limits<double>::quiet_NaN();
  // Relative to the reference (NaN without one, or for a subset without pairs).
  double kl_pq = std::numeric_limits<double>::quiet_NaN();
  double kl_pu = std::numeric_limits<double>::quiet_NaN();
  double tdcone_rel = std::numeric_limits<double>::quiet_NaN();
  // Its pairs' n-gram sums: BLEU and unigram precision (add_subset_diversity).
  text::DiversitySums diversity;
};

/// Scores every subset of `groups` from `matrix` (finished; its cells' group
/// indices follow `groups`). Sums are exact (ExactSum), so every value has the
/// same bits for any rank count and round size. With a `reference` matrix (one group, same vocabulary,
/// hence the same row owners) also KL_pq, KL_pu and TD-CONE_REL of the
/// reference given each subset, with Q smoothed by `lambda`. The vocabulary's
/// marks must carry the corpus groups' output words and the reference's
/// output words. `progress` counts this rank's rows. Collective.
std::vector<SubsetScore> score_subsets(MPI_Comm comm, const matrix::PartitionedMatrix& matrix, const PairGroups& groups,
                                       const mpi::GlobalVocabulary& vocabulary,
                                       const matrix::PartitionedMatrix* reference, double lambda,
                                       const ProgressCallback& progress = {});

}  // namespace tdcone::entropy
