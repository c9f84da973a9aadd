#include "tdcone/engine/accumulate_stage.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/core/activity.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/engine/memory_budget.hpp"

namespace tdcone::engine {

namespace {

using text::WordId;

// Builds one round's messages, pair by pair.
class RoundWriter {
 public:
  RoundWriter(text::TokenizedShare& share, std::span<const std::uint32_t> group_of_pair,
              const align::PairAligner& aligner, const WordRoutes& routes, const matrix::WeightScale& scale, int rank,
              int n_ranks, std::vector<double>* pair_tdcone)
      : share_(share), groups_(group_of_pair), aligner_(aligner), routes_(routes), scale_(scale),
        pair_tdcone_(pair_tdcone), own_(static_cast<std::size_t>(rank)), outbox_(n_ranks), same_(n_ranks),
        rows_(n_ranks), weights_(n_ranks), n_same_(n_ranks), n_rows_(n_ranks), sent_words_(n_ranks) {}

  /// Encodes pairs from `next` until the messages reach `words` words or the
  /// share ends, releasing their types as it goes (the messages carry them now).
  void fill(std::size_t& next, std::uint64_t words) {
    // A quarter more than each owner took last round, where a box has less
    // room than that (else it is kept, its pages written already): rounds
    // are alike, and a box that doubled as it grew would hold both copies at
    // once (pages reserved but never written cost nothing). The own box becomes the
    // inbox: room for all that the last round received. The first round
    // ends near `words` in all (or holds the share), about as much to each
    // owner and from each: grown by doubling instead, its boxes were copied
    // as they grew, and into fresh pages.
    const std::size_t ranks = outbox_.size();
    const std::uint64_t first_round = first_round_ ? std::min(words, estimated_message_words(share_)) : 0;
    for (std::size_t owner = 0; owner < ranks; ++owner) {
      std::size_t room = owner == own_ ? received_words_ : sent_words_[owner];
      if (first_round_) room = owner == own_ ? first_round : first_round / ranks;
      outbox_[owner].clear();
      if (outbox_[owner].capacity() < room) outbox_[owner].reserve(room + room / 4);
    }
    std::uint64_t written = 0;
    for (; next < share_.size() && written < words; ++next) {
      written += add_pair(next);
      if ((next & 0x3ff) == 0) note_progress();  // a round can be long: the stall watchdog sees it move
      // The messages grow while the pairs they encode go: not both at once.
      // Every 64k pairs (about 8 MiB of types), not pair by pair: each
      // release is a call into the kernel, which flushes the TLBs.
      if ((next & 0xffff) == 0) share_.release_types_before(next);
    }
    share_.release_types_before(next);
    for (std::size_t owner = 0; owner < ranks; ++owner) sent_words_[owner] = outbox_[owner].size();
    first_round_ = false;
  }
  const std::vector<std::vector<std::uint32_t>>& outbox() const { return outbox_; }
  const SpreadWords& spread() const { return spread_; }
  /// Sends the messages into `inbox`, which begins with this rank's own,
  /// not copied (the matrix adds a round's rows in any order), and frees what
  /// the outbox then holds: the matrix grows into its memory while it adds the round.
  void exchange(MPI_Comm comm, mpi::Received<std::uint32_t>& inbox) {
    mpi::all_to_all_own_first(comm, outbox_, inbox);
    received_words_ = inbox.records.size();
    for (auto& box : outbox_) std::vector<std::uint32_t>().swap(box);
  }
  /// The own messages became the inbox: once added, its buffer is the next
  /// round's own box, which then writes over pages it holds (freed, they
  /// stayed in the heap as a gap while the next round faulted fresh ones).
  void take_back(mpi::Received<std::uint32_t>& inbox) { outbox_[own_].swap(inbox.records); }
  /// The boxes' bytes; the own box's room for what it will receive is the
  /// inbox's, counted there.
  std::uint64_t buffer_bytes() const {
    std::uint64_t bytes = 0;
    for (std::size_t owner = 0; owner < outbox_.size(); ++owner)
      bytes += (owner == own_ ? outbox_[owner].size() : outbox_[owner].capacity()) * 4;
    return bytes;
  }

 private:
  std::uint64_t add_pair(std::size_t i) {
    if (share_.flags[i] & schema::bad_line) return 0;
    const auto y = share_.tgt_types(i);
    aligner_.split(share_.src_types(i), y, split_);
    if (pair_tdcone_) (*pair_tdcone_)[i] = aligner_.pair_tdcone(split_, y.size());
    const std::uint32_t group = groups_.empty() ? 0 : groups_[i];
    if (group == entropy::kNoGroup) return 0;
    if (!split_.y_only.empty()) spread_.spread_words += split_.x_only.size();
    spread_.spread_by_vectors += split_.spread_by_vectors;

    const bool weighted = !aligner_.spreads_uniformly();
    // Written through pointers into lists sized first: a push_back a word
    // loaded the routes again after each (its growing is a call).
    const std::uint32_t* const global_id = routes_.global_id.data();
    const std::uint32_t* const owner_of = routes_.owner.data();
    y_only_.resize(split_.y_only.size());
    for (std::size_t t = 0; t < split_.y_only.size(); ++t) y_only_[t] = global_id[split_.y_only[t]];
    const std::size_t most = std::max(split_.same.size(), split_.x_only.size());
    if (list_room_ < most) {
      list_room_ = std::max(most, 2 * list_room_);
      for (auto& list : same_) list.resize(list_room_);
      for (auto& list : rows_) list.resize(list_room_);
    }
    touched_.clear();
    std::uint32_t* const n_same = n_same_.data();
    std::uint32_t* const n_rows = n_rows_.data();
    auto touch = [&](std::uint32_t owner) {
      if (n_same[owner] == 0 && n_rows[owner] == 0) touched_.push_back(owner);
    };
    for (WordId w : split_.same) {
      const std::uint32_t owner = owner_of[w];
      touch(owner);
      same_[owner][n_same[owner]++] = global_id[w];
    }
    for (WordId w : split_.x_only) {
      const std::uint32_t owner = owner_of[w];
      touch(owner);
      rows_[owner][n_rows[owner]++] = global_id[w];
    }
    if (!split_.shares.empty()) {  // embedding mode: |y\x| shares per x\y word, in its owner's message
      const double* shares = split_.shares.data();
      for (WordId w : split_.x_only)
        for (std::size_t t = 0; t < split_.y_only.size(); ++t) {
          weights_[owner_of[w]].push_back(scale_.fixed(*shares++));
        }
    }
    const bool null_row = split_.null_row();
    if (null_row && std::find(touched_.begin(), touched_.end(), 0u) == touched_.end()) touched_.push_back(0);

    std::uint64_t written = 0;
    for (std::uint32_t owner : touched_) {
      written += matrix::pair_message::append(
          outbox_[owner], {.group = group,
                           .yo = y_only_,
                           .same = {same_[owner].data(), n_same_[owner]},
                           .xo = {rows_[owner].data(), n_rows_[owner]},
                           .weights = weights_[owner],
                           .null_row = null_row && owner == 0,
                           .weighted = weighted});
      n_same_[owner] = 0;
      n_rows_[owner] = 0;
      weights_[owner].clear();
    }
    return written;
  }

  text::TokenizedShare& share_;
  std::span<const std::uint32_t> groups_;
  const align::PairAligner& aligner_;
  const WordRoutes& routes_;
  const matrix::WeightScale& scale_;
  std::vector<double>* pair_tdcone_;
  std::size_t own_;  // this rank: its box becomes the inbox
  std::vector<std::vector<std::uint32_t>> outbox_, same_, rows_;
  std::vector<std::vector<std::uint64_t>> weights_;  // per owner: the pair's rule-2 weights (static alignment)
  std::vector<std::uint32_t> n_same_, n_rows_;  // per owner: the pair's words in same_ and rows_
  std::size_t list_room_ = 0;                    // the size of every list of same_ and rows_
  std::vector<std::uint32_t> touched_, y_only_;
  std::vector<std::size_t> sent_words_;  // each owner's words in the last round
  std::size_t received_words_ = 0;       // the last round's inbox, the own words among them
  bool first_round_ = true;
  align::PairSplit split_;
  SpreadWords spread_;
};

// Adds the rows of the received messages to the matrix, at most about
// `max_jobs` rows at a time.
void add_messages(const mpi::Received<std::uint32_t>& inbox, matrix::PartitionedMatrix& matrix, std::size_t max_jobs) {
  const std::span<const std::uint32_t> words(inbox.records);
  if (words.size() >= (std::uint64_t{1} << 32))
    throw UsageError(cat("a round received more than 2^32 words: give a smaller ", Option::round_size));
  std::size_t from = 0, jobs = 0;
  for (std::size_t at = 0; at < words.size();) {
    if (jobs >= max_jobs) {
      matrix.add(words.subspan(from, at - from));
      from = at;
      jobs = 0;
    }
    const matrix::pair_message::Reader message(&words[at]);
    jobs += message.row_count();
    at += message.length();
  }
  matrix.add(words.subspan(from));
}

// Free bytes inside malloc's heap, less its releasable top: memory the
// process holds that nothing uses.
std::uint64_t heap_gap_bytes() {
  const struct mallinfo2 heap = mallinfo2();
  return heap.fordblks > heap.keepcost ? heap.fordblks - heap.keepcost : 0;
}

// The bytes of a rank's matrix as the pairs go by, to project them to the end.
class MatrixGrowth {
 public:
  explicit MatrixGrowth(std::uint64_t empty) : points_{{0.0, static_cast<double>(empty)}} {}
  /// The bytes at the end, from `bytes` after a fraction `done` of the pairs.
  /// New cells come ever rarer as pairs repeat earlier ones: the rate of the
  /// latter half so far is at least the rate still to come.
  double at_end(double done, double bytes) {
    points_.push_back({done, bytes});
    auto half = points_.begin();
    while (std::next(half) != points_.end() && std::next(half)->first <= done / 2) ++half;
    const double rate = done > half->first ? (bytes - half->second) / (done - half->first) : 0;
    return bytes + std::max(rate, 0.0) * (1 - done);
  }
  /// Bytes for all the pairs at the average rate so far (no less than any later rate).
  double per_pass() const {
    const auto& [done, bytes] = points_.back();
    return done > 0 ? bytes / done : 0;
  }
  double done() const { return points_.back().first; }

 private:
  std::vector<std::pair<double, double>> points_;  // (fraction of the pairs done, bytes)
};

// The error every rank raises when some rank's matrix outgrew the budget, with
// what the fullest rank needs: each part the largest of any rank's. Collective.
mpi::CollectiveError over_budget_error(const boost::mpi::communicator& comm, const MemoryNeed& mine, double held,
                                       bool over_here, double done, const AccumulateLimits& limits) {
  double parts[4] = {mine.shared, mine.split, mine.buffers, mine.buffers_growth};
  MPI_Allreduce(MPI_IN_PLACE, parts, 4, MPI_DOUBLE, MPI_MAX, comm);
  struct {
    double held;
    int rank;
  } over{over_here ? held : -1, comm.rank()}, fullest{};
  MPI_Allreduce(&over, &fullest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
  const MemoryNeed need{parts[0], parts[1], parts[2], parts[3]};
  return mpi::CollectiveError(
      cat("rank ", fullest.rank, ": the alignment matrix does not fit ", Option::memory, " ", format_bytes(limits.memory_bytes),
          ": after ", static_cast<int>(100 * done), "% of the pairs this rank holds ", format_bytes(fullest.held),
          " and would need about ", format_bytes(need.shared + need.split + need.buffers), " at the end; ",
          memory_advice(need, comm.size(), limits.memory_bytes, limits.machine_bytes)),
      2);
}

}  // namespace

std::uint64_t estimated_message_words(const text::TokenizedShare& share) {
  return 2 * (share.side_types() + 6 * share.size());
}

SpreadWords accumulate(const boost::mpi::communicator& comm, text::TokenizedShare& share,
                       std::span<const std::uint32_t> group_of_pair, const align::PairAligner& aligner,
                       const WordRoutes& routes, matrix::PartitionedMatrix& matrix, const AccumulateLimits& limits,
                       const ProgressCallback& progress, std::vector<double>* pair_tdcone) {
  if (pair_tdcone) pair_tdcone->assign(share.size(), std::numeric_limits<double>::quiet_NaN());
  RoundWriter writer(share, group_of_pair, aligner, routes, matrix.scale(), comm.rank(), comm.size(), pair_tdcone);
  const std::uint64_t round_words = std::max<std::uint64_t>(limits.round_bytes / 4, 1024);
  // The matrix sorts a round's rows by place in 8 bytes each: at most four
  // thirds of the round's bytes, two thirds of a row a word. Enough for a
  // whole round of a Twitter-shaped corpus, whose messages carry fewer rows
  // than words: each add() merges every bucket once, and a round split in
  // two would cost a second pass over all the cells held.
  const std::size_t max_jobs = std::max<std::size_t>(limits.round_bytes / 6, 1024);
  mpi::Received<std::uint32_t> inbox;
  const std::uint64_t gaps_before = heap_gap_bytes();  // left by earlier stages: theirs
  // What the share gives back as it is aligned is no longer held.
  const std::uint64_t released_before = share.released_bytes();
  auto held_outside = [&] { return static_cast<double>(limits.held_bytes - (share.released_bytes() - released_before)); };
  // Resident but counted nowhere: MPI and the libraries.
  const auto uncounted = static_cast<double>(resident_at_start());
  std::size_t next = 0;
  const auto all_pairs = static_cast<double>(share.total_lines);
  int status = 0;
  std::string message;
  MatrixGrowth growth(matrix.bytes());
  MemoryNeed need;
  double held = 0;
  bool over_budget = false;
  for (;;) {
    if (status == 0) {
      status = mpi::run_local_step([&] { writer.fill(next, round_words); }, message);
    }
    // One agreement a round: failures, pairs left, words to send, pairs done, ranks over the budget.
    std::uint64_t words = 0;
    for (const auto& box : writer.outbox()) words += box.size();
    const std::vector<std::uint64_t> round = mpi::sum_all(
        comm, std::vector<std::uint64_t>{status != 0 ? 1u : 0u, share.size() - next, words, next, over_budget ? 1u : 0u});
    if (round[0] > 0) {
      throw mpi::collective_error(*mpi::first_failure(comm, status, message));
    }
    if (round[4] > 0) throw over_budget_error(comm, need, held, over_budget, growth.done(), limits);
    progress.update(round[3], all_pairs > 0 ? round[3] / all_pairs : 1.0);
    if (round[1] == 0 && round[2] == 0) break;

    // Counted as if held together, as they are at an exchange; also on one
    // rank, which holds only one: its budget and advice stay those of any rank count.
    const std::uint64_t sent_bytes = writer.buffer_bytes();
    writer.exchange(comm, inbox);
    status = mpi::run_local_step([&] { add_messages(inbox, matrix, max_jobs); }, message);
    const double done = all_pairs > 0 ? round[3] / all_pairs : 1.0;
    const double buffers = static_cast<double>(sent_bytes + inbox.records.capacity() * 4);
    const double matrix_now = static_cast<double>(matrix.bytes());
    // Also held: the routes and the pairs' TD-CONE of this pass, and the
    // gaps that blocks freed by the matrix's merges left in the heap.
    const std::uint64_t gaps = heap_gap_bytes();
    const double side = static_cast<double>(routes.owner.capacity() * sizeof(std::uint32_t) +
                                            (pair_tdcone ? pair_tdcone->capacity() * sizeof(double) : 0) +
                                            (gaps > gaps_before ? gaps - gaps_before : 0));
    held = uncounted + held_outside() + matrix_now + side + buffers;
    need.shared = uncounted + static_cast<double>(limits.shared_bytes);
    need.split = held_outside() - static_cast<double>(limits.shared_bytes) + side + growth.at_end(done, matrix_now) +
                 growth.per_pass() * limits.later_pass;
    need.buffers = buffers;
    need.buffers_growth = limits.round_growth;
    over_budget = limits.memory_bytes > 0 && held > static_cast<double>(limits.memory_bytes);
    writer.take_back(inbox);
  }
  progress.finish(static_cast<std::uint64_t>(all_pairs));
  return writer.spread();
}

}  // namespace tdcone::engine
