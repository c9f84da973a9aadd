#include "tdcone/select/cynical.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <absl/container/flat_hash_set.h>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/mpi/guard.hpp"

namespace tdcone::select {

std::vector<bool> selectable_words(const Statistics& stats, const CynicalOptions& options) {
  const double e = std::exp(1.0);
  std::vector<bool> selectable(stats.lexicon.size(), false);
  for (std::size_t v = 0; v < selectable.size(); ++v) {
    if (stats.repr[v] == 0 || stats.available[v] == 0) continue;
    if (stats.repr[v] < options.mincount && stats.unadapted[v] < options.mincount) continue;  // dubious
    const double ratio = stats.unadapted[v] == 0
                             ? std::numeric_limits<double>::infinity()
                             : (double(stats.repr[v]) / stats.repr_tokens) / (double(stats.unadapted[v]) / stats.unadapted_tokens);
    if (ratio <= 1.0 / e) continue;                     // indicative of UNAD
    if (!options.keep_boring && ratio < e) continue;    // "meh"
    selectable[v] = true;
  }
  return selectable;
}

namespace {

using Word = std::uint32_t;

// The unigram model of SEED + the selected lines, scoring REPR (replicated).
class Model {
 public:
  Model(const Statistics& stats, double epsilon)
      : epsilon_(epsilon), epsilon_lexicon_(epsilon * double(stats.lexicon.size())), tokens_(double(stats.seed_tokens)) {
    h_.resize(stats.lexicon.size());
    count_.resize(stats.lexicon.size());
    for (std::size_t v = 0; v < h_.size(); ++v) {
      h_[v] = stats.repr_tokens ? double(stats.repr[v]) / double(stats.repr_tokens) : 0.0;
      count_[v] = double(stats.seed[v]);
      if (h_[v] > 0) log_sum_ += h_[v] * std::log(count_[v] + epsilon_);
      repr_mass_ += h_[v];
    }
  }

  /// H_n = -Σ h(v)·ln((C(v)+ε)/(W+ε|L|)) = ln(W+ε|L|) − Σ h(v)·ln(C(v)+ε), as Σ h = 1.
  double entropy() const { return repr_mass_ * std::log(tokens_ + epsilon_lexicon_) - log_sum_; }
  double wge(Word v) const {
    return h_[v] > 0 ? h_[v] * std::log((count_[v] + epsilon_) / (count_[v] + 1.0 + epsilon_)) : 0.0;
  }
  double penalty(std::uint32_t length) const {
    return std::log((tokens_ + length + epsilon_lexicon_) / (tokens_ + epsilon_lexicon_));
  }
  double gain(const Word* words, const std::uint32_t* counts, std::size_t n) const {
    double g = 0.0;
    for (std::size_t k = 0; k < n; ++k)
      if (h_[words[k]] > 0)
        g += h_[words[k]] * std::log((count_[words[k]] + epsilon_) / (count_[words[k]] + counts[k] + epsilon_));
    return g;
  }
  double tokens() const { return tokens_; }
  double count(Word v) const { return count_[v]; }
  void save(SelectionState& state) const {
    state.counts = count_;
    state.tokens = tokens_;
    state.log_sum = log_sum_;
  }
  void restore(const SelectionState& state) {
    count_ = state.counts;
    tokens_ = state.tokens;
    log_sum_ = state.log_sum;
  }

  void add(const Word* words, const std::uint32_t* counts, std::size_t n, std::uint32_t length) {
    for (std::size_t k = 0; k < n; ++k) {
      const Word v = words[k];
      if (h_[v] > 0) log_sum_ += h_[v] * (std::log(count_[v] + counts[k] + epsilon_) - std::log(count_[v] + epsilon_));
      count_[v] += counts[k];
    }
    tokens_ += length;
  }

 private:
  double epsilon_, epsilon_lexicon_, tokens_;
  std::vector<double> h_, count_;
  double log_sum_ = 0.0;   // Σ h(v)·ln(C(v)+ε)
  double repr_mass_ = 0.0; // Σ h(v): 1, or 0 for an empty REPR
};

// A candidate line as exchanged between ranks (its words follow it on the wire).
struct Candidate {
  double delta_h, penalty, gain;
  std::uint64_t pair_id, text_hash;
  std::uint32_t length, n_words;
  std::uint32_t source_rank, line;  // where the line lives
  std::uint64_t words_at;           // after the exchange: its words in received_words_
};

bool better(const Candidate& a, const Candidate& b) {
  return a.delta_h != b.delta_h ? a.delta_h < b.delta_h : a.pair_id < b.pair_id;
}

struct HeapEntry {
  double gain;  // the line's gain when last scored: a lower bound of its gain now
  std::uint32_t line;
};
bool heap_after(const HeapEntry& a, const HeapEntry& b) { return a.gain != b.gain ? a.gain > b.gain : a.line > b.line; }

// The lines of one word with one length, as a heap in entries_[begin, begin + size).
// All of them pay the same penalty, so the top's cached gain plus that penalty
// bounds every ΔH in the segment from below.
struct Segment {
  std::uint64_t begin;
  std::uint32_t size, length;
};

// A segment in the merge of local_best: its bound now, and its top line for ties.
struct Front {
  double bound;
  std::uint32_t line, segment;
};
bool front_after(const Front& a, const Front& b) { return a.bound != b.bound ? a.bound > b.bound : a.line > b.line; }

class Selector {
 public:
  Selector(const boost::mpi::communicator& comm, const Statistics& stats, const AvailableLines& lines,
           const CynicalOptions& options, const SelectionState* resume)
      : comm_(comm), lines_(lines), options_(options), model_(stats, options.epsilon),
        latest_gain_(lines.size()), selected_(lines.size(), false) {
    h_initial_ = best_h_ = model_.entropy();
    const std::vector<bool> selectable = selectable_words(stats, options);
    if (resume) restore(*resume, selectable);
    std::vector<std::uint64_t> local_lines_of_word(stats.lexicon.size(), 0);
    for (std::uint32_t i = 0; i < lines.size(); ++i) {
      if (selected_[i]) continue;
      latest_gain_[i] = model_.gain(words(i), counts(i), n_words(i));
      for (std::size_t k = 0; k < n_words(i); ++k) ++local_lines_of_word[words(i)[k]];
    }
    build_segments(local_lines_of_word);
    lines_of_word_ = mpi::sum_all(MPI_Comm(comm), local_lines_of_word);
    remaining_ = mpi::sum_all<std::uint64_t>(comm, lines.size()) - done_;
    active_key_.assign(stats.lexicon.size(), std::numeric_limits<double>::quiet_NaN());
    for (Word v = 0; v < selectable.size(); ++v)
      if ((second_pass_ || selectable[v]) && lines_of_word_[v] > 0) activate(v);
  }

  Selection run(const std::function<void(std::uint64_t, std::uint64_t, double)>& on_progress,
                const Interrupt& interrupt) {
    Selection result;
    result.ranked = std::move(ranked_);
    result.h_initial = h_initial_;
    result.stop_rank = stop_rank_;
    const std::uint64_t total = remaining_ + done_;
    for (std::uint64_t iteration = 0; remaining_ > 0; ++iteration) {
      if (interrupt.poll && iteration % kPollEvery == 0) {
        const int action = interrupt.poll();
        if (action != 0) interrupt.save(state(result));
        if (action == 2) {
          result.interrupted = true;
          return result;
        }
      }
      const ActiveEntry* best = best_word();
      if (!best) {  // second pass: every word with lines left
        second_pass_ = true;
        for (Word v = 0; v < lines_of_word_.size(); ++v)
          if (lines_of_word_[v] > 0) activate(v);
        best = best_word();
      }
      const auto [wge, root] = *best;  // a copy: applying lines moves the heap
      const std::uint64_t k = lines_of_word_[root];
      const std::size_t batch =
          options_.batch ? static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(k)))) : 1;
      std::vector<Candidate> chosen = exchange_candidates(local_best(root, batch));
      std::sort(chosen.begin(), chosen.end(), better);
      if (chosen.size() > batch) chosen.resize(batch);
      seen_texts_.clear();  // identical strings: the first stays, the rest go back
      for (const Candidate& c : chosen) {
        if (!seen_texts_.insert(c.text_hash).second) continue;
        apply(c);
        const double h = model_.entropy();
        if (comm_.rank() == 0) result.ranked.push_back({c.pair_id, c.delta_h, c.penalty, c.gain, h, root, wge});
        ++done_;
        if (h < best_h_) {
          best_h_ = h;
          result.stop_rank = stop_rank_ = done_;
        }
      }
      if (on_progress && comm_.rank() == 0) on_progress(done_, total, model_.entropy());
    }
    return result;
  }

 private:
  static constexpr std::uint64_t kPollEvery = 16;  // iterations between interrupt polls (a collective call)

  SelectionState state(const Selection& so_far) const {
    SelectionState s;
    s.ranked = so_far.ranked;
    s.h_initial = h_initial_;
    s.best_h = best_h_;
    s.stop_rank = stop_rank_;
    s.second_pass = second_pass_;
    model_.save(s);
    return s;
  }

  // Continues from a checkpoint: the model, the pass, and which lines are
  // taken, once the state is known to fit these lines (read_checkpoint checked
  // its indices and ranking). Every rank tallies the taken lines it holds, one
  // sum over ranks follows, and every rank checks the same totals, so all
  // refuse together.
  void restore(const SelectionState& s, const std::vector<bool>& selectable) {
    std::vector<std::pair<std::uint64_t, Word>> taken;  // (pair_id, root word)
    for (const RankedLine& r : s.ranked) taken.emplace_back(r.pair_id, r.root_word);
    std::sort(taken.begin(), taken.end());
    const std::size_t n = selectable.size();
    std::vector<std::uint64_t> tally(n + 3, 0);  // word counts, tokens, lines, lines without their root word
    for (std::uint32_t i = 0; i < lines_.size(); ++i) {
      const auto at = std::lower_bound(taken.begin(), taken.end(), std::pair<std::uint64_t, Word>(lines_.pair_id[i], 0));
      selected_[i] = at != taken.end() && at->first == lines_.pair_id[i];
      if (!selected_[i]) continue;
      for (std::size_t k = 0; k < n_words(i); ++k) tally[words(i)[k]] += counts(i)[k];
      tally[n] += lines_.length[i];
      ++tally[n + 1];
      if (!std::binary_search(words(i), words(i) + n_words(i), at->second)) ++tally[n + 2];
    }
    tally = mpi::sum_all(MPI_Comm(comm_), tally);

    const auto refuse = [](const std::string& why) {
      mpi::fail_everywhere(cat("the checkpoint does not fit these inputs: ", why, "; start again without ", Option::resume), 2);
    };
    if (tally[n + 1] != s.ranked.size())
      refuse(cat(s.ranked.size() - tally[n + 1], " of its ranked lines are not selectable lines of AVAIL"));
    if (tally[n + 2] != 0) refuse(cat(tally[n + 2], " of its ranked lines lack their root word"));
    // The pass: the second one takes root words that are not selectable, the first never does.
    const bool second_pass =
        std::any_of(s.ranked.begin(), s.ranked.end(), [&](const RankedLine& r) { return !selectable[r.root_word]; });
    if (s.second_pass != second_pass) refuse("its pass does not fit its root words");
    // The model: SEED plus the taken lines, exactly (counts are whole numbers).
    bool counts_fit = s.counts.size() == n && s.tokens == model_.tokens() + double(tally[n]);
    for (Word v = 0; counts_fit && v < n; ++v) counts_fit = s.counts[v] == model_.count(v) + double(tally[v]);
    if (!counts_fit) refuse("its model counts are not those of SEED and its ranked lines");
    if (s.h_initial != h_initial_) refuse("its initial cross-entropy is not that of these corpora");
    model_.restore(s);
    if (model_.entropy() != (s.ranked.empty() ? s.h_initial : s.ranked.back().cross_entropy))
      refuse("its model is not that of its last cross-entropy");

    h_initial_ = s.h_initial;
    best_h_ = s.best_h;
    stop_rank_ = s.stop_rank;
    second_pass_ = s.second_pass;
    done_ = s.ranked.size();
    if (comm_.rank() == 0) ranked_ = s.ranked;
  }

  const Word* words(std::uint32_t i) const { return lines_.words.data() + lines_.start[i]; }
  const std::uint32_t* counts(std::uint32_t i) const { return lines_.counts.data() + lines_.start[i]; }
  std::size_t n_words(std::uint32_t i) const { return lines_.start[i + 1] - lines_.start[i]; }

  // Candidate root words: a min-heap of (WGE, word) whose entries go stale when
  // a word's WGE changes (active_key_ tells); stale ones are dropped at the top,
  // and all of them when they outnumber the live ones.
  using ActiveEntry = std::pair<double, Word>;
  static bool active_after(const ActiveEntry& a, const ActiveEntry& b) { return a > b; }
  bool live(const ActiveEntry& e) const { return active_key_[e.second] == e.first; }  // false for NaN

  void activate(Word v) {
    if (std::isnan(active_key_[v])) ++active_count_;
    active_key_[v] = model_.wge(v);
    active_.push_back({active_key_[v], v});
    std::push_heap(active_.begin(), active_.end(), active_after);
  }
  void deactivate(Word v) {
    active_key_[v] = std::numeric_limits<double>::quiet_NaN();
    --active_count_;
  }
  // The best root word, (WGE, word), or null when none is left.
  const ActiveEntry* best_word() {
    if (active_.size() > 2 * active_count_ + 1024) {
      std::erase_if(active_, [&](const ActiveEntry& e) { return !live(e); });
      std::make_heap(active_.begin(), active_.end(), active_after);
    }
    while (!active_.empty() && !live(active_.front())) {
      std::pop_heap(active_.begin(), active_.end(), active_after);
      active_.pop_back();
    }
    return active_.empty() ? nullptr : &active_.front();
  }

  // Every unselected line under each of its words, grouped by word, then by
  // length into segments, each a heap by cached gain.
  void build_segments(const std::vector<std::uint64_t>& entries_of_word) {
    std::vector<std::uint64_t> next(entries_of_word.size() + 1, 0);
    for (Word v = 0; v < entries_of_word.size(); ++v) next[v + 1] = next[v] + entries_of_word[v];
    entries_.resize(next.back());
    for (std::uint32_t i = 0; i < lines_.size(); ++i)
      if (!selected_[i])
        for (std::size_t k = 0; k < n_words(i); ++k) entries_[next[words(i)[k]]++] = {latest_gain_[i], i};
    const auto by_length = [&](const HeapEntry& a, const HeapEntry& b) {
      return lines_.length[a.line] < lines_.length[b.line];
    };
    first_segment_.assign(entries_of_word.size() + 1, 0);
    std::uint64_t begin = 0;
    for (Word v = 0; v < entries_of_word.size(); ++v) {
      const auto word_end = entries_.begin() + static_cast<std::ptrdiff_t>(begin + entries_of_word[v]);
      std::sort(entries_.begin() + static_cast<std::ptrdiff_t>(begin), word_end, by_length);  // heaps next: order within a length is free
      for (auto at = entries_.begin() + static_cast<std::ptrdiff_t>(begin); at != word_end;) {
        const std::uint32_t length = lines_.length[at->line];
        const auto end = std::find_if(at, word_end, [&](const HeapEntry& e) { return lines_.length[e.line] != length; });
        std::make_heap(at, end, heap_after);
        segments_.push_back({static_cast<std::uint64_t>(at - entries_.begin()), static_cast<std::uint32_t>(end - at), length});
        at = end;
      }
      begin += entries_of_word[v];
      first_segment_[v + 1] = segments_.size();
    }
  }

  HeapEntry* heap_of(const Segment& s) { return entries_.data() + s.begin; }
  HeapEntry pop(Segment& s) {
    std::pop_heap(heap_of(s), heap_of(s) + s.size, heap_after);
    return heap_of(s)[--s.size];
  }
  // Only lines popped from the segment come back, so it never outgrows its place.
  void push(Segment& s, const HeapEntry& e) {
    heap_of(s)[s.size++] = e;
    std::push_heap(heap_of(s), heap_of(s) + s.size, heap_after);
  }
  void push_front(std::uint32_t segment) {
    const Segment& s = segments_[segment];
    if (s.size == 0) return;
    const HeapEntry& top = heap_of(s)[0];
    fronts_.push_back({top.gain + model_.penalty(s.length), top.line, segment});
    std::push_heap(fronts_.begin(), fronts_.end(), front_after);
  }

  // This rank's best `batch` lines containing `root`, by exact ΔH (ties by
  // pair_id): the word's segments are merged by their bounds (cached gain plus
  // the segment's penalty, both as of now), and lines are scored in that order
  // until no unread line can beat the worst of the best.
  std::vector<Candidate> local_best(Word root, std::size_t batch) {
    fronts_.clear();
    for (std::uint64_t k = first_segment_[root]; k < first_segment_[root + 1]; ++k) push_front(static_cast<std::uint32_t>(k));
    std::vector<Candidate> best;  // a max-heap under `better`
    std::vector<std::pair<std::uint32_t, std::uint32_t>> scored;  // (segment, line)
    while (!fronts_.empty()) {
      const Front front = fronts_.front();
      if (best.size() == batch && front.bound > best.front().delta_h) break;
      std::pop_heap(fronts_.begin(), fronts_.end(), front_after);
      fronts_.pop_back();
      Segment& segment = segments_[front.segment];
      const HeapEntry top = pop(segment);
      const std::uint32_t i = top.line;
      if (!selected_[i]) {  // else a ghost: selected through another word
        if (latest_gain_[i] > top.gain) {  // a tighter bound is known: requeue without scoring
          push(segment, {latest_gain_[i], i});
        } else {
          const double penalty = model_.penalty(lines_.length[i]);
          const double gain = model_.gain(words(i), counts(i), n_words(i));
          latest_gain_[i] = gain;
          scored.emplace_back(front.segment, i);
          const Candidate c{penalty + gain, penalty, gain, lines_.pair_id[i], lines_.text_hash[i], lines_.length[i],
                            static_cast<std::uint32_t>(n_words(i)), static_cast<std::uint32_t>(comm_.rank()), i, 0};
          if (best.size() < batch) {
            best.push_back(c);
            std::push_heap(best.begin(), best.end(), better);
          } else if (better(c, best.front())) {
            std::pop_heap(best.begin(), best.end(), better);
            best.back() = c;
            std::push_heap(best.begin(), best.end(), better);
          }
        }
      }
      push_front(front.segment);
    }
    for (const auto& [segment, i] : scored)  // back with their new bound (selected ones become ghosts)
      push(segments_[segment], {latest_gain_[i], i});
    return best;
  }

  // Every rank's candidates, with their words, on every rank.
  std::vector<Candidate> exchange_candidates(const std::vector<Candidate>& mine) {
    std::vector<char> packed;
    for (const Candidate& c : mine) {
      const std::size_t at = packed.size(), n = c.n_words;
      packed.resize(at + sizeof(Candidate) + n * 8);
      std::memcpy(packed.data() + at, &c, sizeof(Candidate));
      std::memcpy(packed.data() + at + sizeof(Candidate), words(c.line), n * 4);
      std::memcpy(packed.data() + at + sizeof(Candidate) + n * 4, counts(c.line), n * 4);
    }
    const auto all = mpi::all_to_all(MPI_Comm(comm_),
                                      std::vector<std::vector<char>>(static_cast<std::size_t>(comm_.size()), packed));
    std::vector<Candidate> candidates;
    received_words_.clear();
    received_counts_.clear();
    for (std::size_t at = 0; at < all.records.size();) {
      Candidate c;
      std::memcpy(&c, all.records.data() + at, sizeof(Candidate));
      at += sizeof(Candidate);
      const std::size_t n = c.n_words;
      c.words_at = received_words_.size();
      received_words_.resize(c.words_at + n);
      received_counts_.resize(c.words_at + n);
      std::memcpy(received_words_.data() + c.words_at, all.records.data() + at, 4 * n);
      std::memcpy(received_counts_.data() + c.words_at, all.records.data() + at + 4 * n, 4 * n);
      at += n * 8;
      candidates.push_back(c);
    }
    return candidates;
  }

  // Adds a chosen line to the model and removes it from the pool.
  void apply(const Candidate& c) {
    const Word* ws = received_words_.data() + c.words_at;
    model_.add(ws, received_counts_.data() + c.words_at, c.n_words, c.length);
    for (std::size_t k = 0; k < c.n_words; ++k) {
      const Word v = ws[k];
      --lines_of_word_[v];
      if (std::isnan(active_key_[v])) continue;
      if (lines_of_word_[v] == 0)
        deactivate(v);
      else if (model_.wge(v) != active_key_[v])  // (a word outside REPR keeps WGE 0)
        activate(v);                             // re-keyed: its old entry goes stale
    }
    if (c.source_rank == static_cast<std::uint32_t>(comm_.rank())) selected_[c.line] = true;
    --remaining_;
  }

  const boost::mpi::communicator& comm_;
  const AvailableLines& lines_;
  const CynicalOptions& options_;
  Model model_;
  std::vector<double> latest_gain_;
  std::vector<bool> selected_;
  std::vector<HeapEntry> entries_;             // every (word, line) here, by word, by length
  std::vector<Segment> segments_;              // by word, by length
  std::vector<std::uint64_t> first_segment_;   // per word: its segments are [first[v], first[v+1])
  std::vector<Front> fronts_;                  // local_best's merge of the root word's segments
  std::vector<std::uint64_t> lines_of_word_;   // per word: unselected lines on all ranks
  std::uint64_t remaining_ = 0;
  std::uint64_t done_ = 0;           // lines ranked so far
  double h_initial_ = 0, best_h_ = 0;
  std::uint64_t stop_rank_ = 0;
  bool second_pass_ = false;
  std::vector<RankedLine> ranked_;   // from a checkpoint, on rank 0
  std::vector<double> active_key_;             // NaN: not a candidate root word
  std::vector<ActiveEntry> active_;            // heap by (WGE, word): the best root word first
  std::size_t active_count_ = 0;               // words with a key
  absl::flat_hash_set<std::uint64_t> seen_texts_;  // text hashes taken in this iteration
  std::vector<Word> received_words_;  // words and counts of this iteration's candidates
  std::vector<std::uint32_t> received_counts_;
};

}  // namespace

Selection select_lines(const boost::mpi::communicator& comm, const Statistics& stats, const AvailableLines& lines,
                       const CynicalOptions& options,
                       const std::function<void(std::uint64_t, std::uint64_t, double)>& on_progress,
                       const Interrupt& interrupt, const SelectionState* resume) {
  return Selector(comm, stats, lines, options, resume).run(on_progress, interrupt);
}

}  // namespace tdcone::select
