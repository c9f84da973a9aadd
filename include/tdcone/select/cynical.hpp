#pragma once
// Batch-mode cynical data selection (docs/spec.md §6; Axelrod's "cynical selection"),
// distributed: AVAIL is sharded over ranks, the model counts are replicated,
// and every iteration the ranks exchange their best candidates, so the
// ranking is the same for any number of ranks.
#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tdcone::select {

struct CynicalOptions {
  std::uint64_t mincount = 3;     // words seen fewer times in both REPR and UNAD are not selectable
  bool keep_boring = true;        // words with e^-1 < r(v) < e stay selectable
  bool batch = true;              // ceil(sqrt(k)) lines per iteration, else one
  std::uint32_t length_cap = 100; // longer AVAIL lines are junk
  double epsilon = 0.01;
};

/// Corpus statistics over the lexicon L, the same on every rank.
struct Statistics {
  std::vector<std::string> lexicon;  // sorted; a word's id is its position
  std::vector<std::uint64_t> repr, unadapted, available, seed;  // C_R, C_U, C_A, SEED counts per word
  std::uint64_t repr_tokens = 0, unadapted_tokens = 0, seed_tokens = 0;
};

/// This rank's selectable AVAIL lines (junk and bad lines excluded), as
/// lexicon ids with counts: line i has words [start[i], start[i+1]).
struct AvailableLines {
  std::vector<std::uint64_t> pair_id;
  std::vector<std::uint32_t> length;     // tokens
  std::vector<std::uint64_t> text_hash;  // identical strings have equal hashes
  std::vector<std::uint64_t> start{0};
  std::vector<std::uint32_t> words, counts;

  std::size_t size() const { return pair_id.size(); }
};

struct RankedLine {
  std::uint64_t pair_id = 0;
  double delta_h = 0, penalty = 0, gain = 0;  // as estimated when selected
  double cross_entropy = 0;                   // exact H_n after adding the line
  std::uint32_t root_word = 0;                // the iteration's best word
  double wge = 0;                             // its word gain estimate then

  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & pair_id & delta_h & penalty & gain & cross_entropy & root_word & wge;
  }
};

namespace detail {

/// A vector through a Boost archive, its elements one by one: loading grows
/// it only as elements actually arrive, so a damaged length in a checkpoint
/// ends at the end of the data instead of allocating what the length says.
template <class Archive, class T>
void archive_vector(Archive& ar, std::vector<T>& items) {
  std::uint64_t size = items.size();
  ar & size;
  if constexpr (Archive::is_loading::value) {
    items.clear();
    items.reserve(std::min<std::uint64_t>(size, 1u << 16));
    for (std::uint64_t i = 0; i < size; ++i) ar & items.emplace_back();
  } else {
    for (T& item : items) ar & item;
  }
}

}  // namespace detail

/// Everything needed to continue a selection exactly where it stopped; it
/// does not depend on the number of ranks. Heaps are rebuilt on resume:
/// they only speed up the search for the exact best lines.
struct SelectionState {
  std::vector<RankedLine> ranked;  // the lines selected so far, in order
  double h_initial = 0, best_h = 0;
  std::uint64_t stop_rank = 0;
  bool second_pass = false;
  std::vector<double> counts;  // the model: SEED + selected counts, tokens, Σ h·ln(C+ε)
  double tokens = 0, log_sum = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    // The flag goes as the byte a bool is archived as: loading a bool from a
    // byte other than 0 or 1 (a damaged checkpoint) is undefined behaviour.
    std::uint8_t pass = second_pass ? 1 : 0;
    detail::archive_vector(ar, ranked);
    ar & h_initial & best_h & stop_rank & pass;
    detail::archive_vector(ar, counts);
    ar & tokens & log_sum;
    if (pass > 1) throw std::invalid_argument("a second-pass flag that is neither 0 nor 1");
    second_pass = pass == 1;
  }
};

/// How a long selection is interrupted: `poll()` is called on every rank at
/// iteration boundaries and must return the same on all (it is collective):
/// 0 go on, 1 save a checkpoint and go on, 2 save and stop. `save` runs on
/// every rank with the state (complete on rank 0).
struct Interrupt {
  std::function<int()> poll;
  std::function<void(const SelectionState&)> save;
};

struct Selection {
  std::vector<RankedLine> ranked;  // on rank 0: every selectable line, in selection order
  double h_initial = 0;            // H_0
  std::uint64_t stop_rank = 0;     // the n minimizing H_n
  bool interrupted = false;        // stopped by Interrupt::poll (a checkpoint was saved)
};

/// Word classes of docs/spec.md §6 (true = selectable in the first pass).
std::vector<bool> selectable_words(const Statistics& stats, const CynicalOptions& options);

/// Ranks every line of every rank's `lines`, continuing from `resume` when
/// given (the same state on every rank, as read_checkpoint verified it). A
/// state that does not fit these lines and statistics (its lines, words,
/// counts, pass or entropies) is refused on every rank (mpi::CollectiveError,
/// status 2). `on_progress(ranked, total, H)` is called on rank 0 now and then.
/// Collective.
Selection select_lines(const boost::mpi::communicator& comm, const Statistics& stats, const AvailableLines& lines,
                       const CynicalOptions& options,
                       const std::function<void(std::uint64_t, std::uint64_t, double)>& on_progress = {},
                       const Interrupt& interrupt = {}, const SelectionState* resume = nullptr);

}  // namespace tdcone::select
