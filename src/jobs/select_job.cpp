#include "tdcone/jobs/select_job.hpp"

#include <boost/mpi/collectives.hpp>

#include <xxhash.h>

#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/mpi/agreement.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/engine/read_stage.hpp"
#include "tdcone/results/writer.hpp"
#include "tdcone/results/selection_table.hpp"
#include "tdcone/select/checkpoint.hpp"
#include "tdcone/select/checkpoint_file.hpp"

namespace tdcone::jobs {

namespace {

// Set by SIGTERM / SIGUSR1 (SLURM's warning before the time limit, or a user).
volatile std::sig_atomic_t stop_requested = 0;
extern "C" void request_stop(int) { stop_requested = 1; }

struct Inputs {
  std::vector<io::InputFile> representative, available, unadapted, seed;
  // The side of REPR, UNAD and SEED: --representative-side etc. with "auto" decided.
  LineSide representative_side = LineSide::src, unadapted_side = LineSide::src, seed_side = LineSide::src;
};

// What a checkpoint must match: the options that shape the ranking, and the
// text and order of every line of every corpus (the same for any number of ranks).
// The names of the command line (--side, --representative-side, ...), for the fingerprint.
std::string side_name(LineSide side) {
  switch (side) {
    case LineSide::tgt: return "tgt";
    case LineSide::both: return "both";
    case LineSide::line: return "line";
    case LineSide::automatic: return "auto";
    case LineSide::src: break;
  }
  return "src";
}

LineSide line_side(select::Side side) {
  return side == select::Side::tgt ? LineSide::tgt : side == select::Side::both ? LineSide::both : LineSide::src;
}

select::Fingerprint fingerprint(const boost::mpi::communicator& comm, const SelectConfig& o, const Inputs& in,
                                const select::Corpora& corpora) {
  // The sides as decided ("auto" resolved): they shape what each corpus counts.
  const std::string key = cat(side_name(line_side(o.side)), '|', side_name(in.representative_side), '|',
                              side_name(in.unadapted_side), '|', side_name(in.seed_side), '|',
                              o.mincount, '|', o.keep_boring, '|', o.batch, '|', o.length_cap, '|', o.skip_seed_lines,
                              '|', config::format_name(o.corpus.format), '|', o.corpus.src_col, '|', o.corpus.tgt_col, '|', o.corpus.src_field,
                              '|', o.corpus.tgt_field, '|', config::tokenizer_name(o.corpus.tokenizer), '|', o.corpus.lowercase, '|',
                              o.corpus.reverse, '|', o.corpus.max_line_bytes);
  const text::TokenizedShare* shares[] = {&corpora.representative, &corpora.available,
                                          corpora.unadapted ? &*corpora.unadapted : nullptr,
                                          corpora.seed ? &*corpora.seed : nullptr};
  std::vector<std::uint64_t> sums;
  for (const auto* share : shares) sums.push_back(share ? select::lines_fingerprint(*share) : 0);
  sums = mpi::sum_all(MPI_Comm(comm), sums);
  // A corpus not given is 0; a given one, even empty, is a hash of its lines' sum and count.
  std::uint64_t parts[4] = {};
  for (std::size_t k = 0; k < 4; ++k)
    if (shares[k]) parts[k] = XXH3_64bits_withSeed(&sums[k], sizeof sums[k], shares[k]->total_lines);
  return {XXH3_64bits(key.data(), key.size()), parts[0], parts[1], parts[2], parts[3]};
}

// How selection reads the lines of an input whose side is `side` (src, tgt, both or line).
text::ReadOptions read_options(const SelectConfig& o, LineSide side) {
  const select::Side text = side == LineSide::tgt ? select::Side::tgt : side == LineSide::both ? select::Side::both
                                                                                                : select::Side::src;
  text::ReadOptions r = o.corpus.line_read_options(text);
  if (side == LineSide::line) {  // the whole line, as both sides
    r.fields = io::FieldSpec();
    r.fields.format = io::Format::line;
  }
  r.keep_counts = true;
  return r;
}

// The side counted in a corpus read with `side`: one text (src, tgt or line,
// read as the same text on both sides) is counted once, as src.
select::Side counted_side(LineSide side) { return side == LineSide::both ? select::Side::both : select::Side::src; }

// "auto": "line" when the input's first non-empty line has one column (TSV:
// no tab; JSONL: not a JSON object), else --side. Decided from the files'
// first bytes, so the same on every rank and for any number of ranks.
LineSide input_side(const SelectConfig& o, LineSide given, const std::vector<io::InputFile>& files) {
  if (given != LineSide::automatic) return given;
  const LineSide side = line_side(o.side);
  const std::optional<std::string> first = io::first_nonempty_line(files, o.corpus.max_line_bytes);
  if (!first) return side;
  if (o.corpus.format == io::Format::jsonl) {
    const std::size_t start = first->find_first_not_of(" \t");
    return start != std::string::npos && (*first)[start] == '{' ? side : LineSide::line;
  }
  return first->find('\t') == std::string::npos ? LineSide::line : side;
}

select::Corpora read_corpora(const boost::mpi::communicator& comm, const SelectConfig& o, const Inputs& in,
                             results::LineCounts& available_counts) {
  select::Corpora c;
  // Every input given must have a usable line: an empty or all-bad SEED or
  // UNAD would silently change the model. SEED and UNAD not given are fine.
  config::BadLinePolicy policy = o.corpus.bad_line_policy();
  const bool jsonl = o.corpus.format == io::Format::jsonl;
  policy.hint = cat(Option::format, " (", config::format_name(o.corpus.format), " here), ", Option::side, " (",
                    side_name(line_side(o.side)), " here), the per-input sides and ",
                    jsonl ? Option::src_field : Option::src_col, "/", jsonl ? Option::tgt_field : Option::tgt_col);
  c.representative = engine::read_files(comm, in.representative, read_options(o, in.representative_side), c.vocabulary,
                                          "representative");
  c.representative_side = counted_side(in.representative_side);
  results::account_lines(comm, c.representative, in.representative, policy, cat("REPR, ", Option::representative));
  c.available = engine::read_files(comm, in.available, read_options(o, line_side(o.side)), c.vocabulary, "available");
  available_counts = results::account_lines(comm, c.available, in.available, policy, cat("AVAIL, ", Option::available));
  if (!in.unadapted.empty()) {
    c.unadapted = engine::read_files(comm, in.unadapted, read_options(o, in.unadapted_side), c.vocabulary, "unadapted");
    c.unadapted_side = counted_side(in.unadapted_side);
    results::account_lines(comm, *c.unadapted, in.unadapted, policy, cat("UNAD, ", Option::unadapted));
  }
  if (!in.seed.empty()) {
    c.seed = engine::read_files(comm, in.seed, read_options(o, in.seed_side), c.vocabulary, "seed");
    c.seed_side = counted_side(in.seed_side);
    results::account_lines(comm, *c.seed, in.seed, policy, cat("SEED, ", Option::seed_corpus));
  }
  return c;
}

// --where: flags left_out the usable AVAIL lines whose /pairs row of
// --where-result fails it. Returns the lines left out, over all ranks. Collective.
std::uint64_t leave_out(const boost::mpi::communicator& comm, const SelectConfig& o, text::TokenizedShare& available) {
  std::uint64_t left_out = 0;
  mpi::collective_step(comm, [&] {
    const std::vector<std::uint8_t> passes = exporting::passes_where(o.where, available, o.read_run_config);
    for (std::size_t i = 0; i < available.size(); ++i)
      if (!passes[i] && !(available.flags[i] & (schema::bad_line | schema::in_seed))) {
        available.flags[i] |= schema::left_out;
        ++left_out;
      }
  });
  return mpi::sum_all(MPI_Comm(comm), left_out);
}

select::CynicalOptions cynical_options(const SelectConfig& o) {
  select::CynicalOptions cynical;
  cynical.mincount = o.mincount;
  cynical.keep_boring = o.keep_boring;
  cynical.batch = o.batch;
  cynical.length_cap = o.length_cap;
  return cynical;
}

// --resume: the state of the checkpoint `path`, which must match `expected`
// (read on rank 0, given to every rank).
select::SelectionState resume_state(const boost::mpi::communicator& comm, const std::string& path,
                                    const select::CheckpointKey& expected) {
  select::SelectionState state;
  mpi::collective_step(comm, [&] {
    if (comm.rank() == 0) state = select::read_checkpoint(path, expected);
  });
  boost::mpi::broadcast(comm, state, 0);
  return state;
}

// The checkpoints of a running selection: on SIGTERM/SIGUSR1 (then it stops)
// and every --checkpoint-every minutes, written by rank 0 to `file`.
class Checkpoints {
 public:
  /// `file`: rank 0's, null elsewhere; `resumed`: the ranked lines of the checkpoint resumed from, if any.
  Checkpoints(const boost::mpi::communicator& comm, select::CheckpointFile* file, const select::Fingerprint& print,
              double every, std::optional<std::size_t> resumed)
      : comm_(comm), file_(file), print_(print), every_minutes_(every), kept_lines_(resumed) {}

  /// What select_lines asks at an iteration boundary. Valid while this object lives.
  select::Interrupt interrupt() {
    return {[this] { return poll(); }, [this](const select::SelectionState& state) { save(state); }};
  }

 private:
  int poll() {
    const bool due = every_minutes_ > 0 && since_checkpoint_.seconds() >= 60.0 * every_minutes_;
    const int mine = stop_requested ? 2 : (comm_.rank() == 0 && due) ? 1 : 0;
    return action_ = boost::mpi::all_reduce(comm_, mine, boost::mpi::maximum<int>());
  }

  void save(const select::SelectionState& state) {
    mpi::collective_step(comm_, [&] {
      if (comm_.rank() != 0) return;
      if (action_ == 2) {  // the job stops: without its checkpoint, it fails
        file_->write(print_, state);
        // One line says it all (under mpirun, scripts/mpirun.sh drops Open MPI's banner about status 75, and
        // returns 75 when it sees this line).
        std::fprintf(stderr,
                     "tdcone select: stopped by a signal: checkpoint of %zu ranked lines written to %s; run the same "
                     "command with %s to continue (exit status 75)\n",
                     state.ranked.size(), file_->path().c_str(), option_name(Option::resume).c_str());
        return;
      }
      try {
        file_->write(print_, state);
      } catch (const IoError& e) {  // a healthy selection goes on; the next period tries again
        std::fprintf(stderr, "tdcone select: warning: %s; %s; the selection goes on\n", e.what(), kept().c_str());
        return;
      }
      kept_lines_ = state.ranked.size();
      std::fprintf(stderr, "tdcone select: checkpoint of %zu ranked lines written to %s\n", state.ranked.size(),
                   file_->path().c_str());
    });
    since_checkpoint_ = Stopwatch();
  }

  // What a failed periodic checkpoint leaves.
  std::string kept() const {
    if (!kept_lines_) return "no checkpoint of this run is kept yet";
    return cat("the previous checkpoint (", *kept_lines_, " ranked lines) is kept, and ", Option::resume,
               " from it gives the same result as an uninterrupted run");
  }

  const boost::mpi::communicator& comm_;
  select::CheckpointFile* file_;
  select::Fingerprint print_;
  double every_minutes_;
  Stopwatch since_checkpoint_;
  std::optional<std::size_t> kept_lines_;  // of the checkpoint at the path, on rank 0
  int action_ = 0;  // of the last poll, the same on every rank: 1 save, 2 save and stop
};

// The inputs given, agreed over all ranks, and the side of each ("auto" decided).
Inputs agreed_inputs(const boost::mpi::communicator& comm, const SelectConfig& options) {
  Inputs in;
  in.representative = mpi::agreed_inputs(comm, options.representative, Option::representative);
  in.available = mpi::agreed_inputs(comm, options.available, Option::available);
  if (!options.unadapted.empty()) in.unadapted = mpi::agreed_inputs(comm, options.unadapted, Option::unadapted);
  if (!options.seed_corpus.empty()) in.seed = mpi::agreed_inputs(comm, options.seed_corpus, Option::seed_corpus);
  mpi::collective_step(comm, [&] {
    in.representative_side = input_side(options, options.representative_side, in.representative);
    in.unadapted_side = in.unadapted.empty() ? line_side(options.side) : input_side(options, options.unadapted_side, in.unadapted);
    in.seed_side = in.seed.empty() ? line_side(options.side) : input_side(options, options.seed_side, in.seed);
  });
  return in;
}

}  // namespace

void catch_stop_signals() {
  std::signal(SIGTERM, request_stop);
  std::signal(SIGUSR1, request_stop);
}

SelectRun run_select_job(const boost::mpi::communicator& comm, const SelectConfig& options, const std::string& config_toml) {
  // SIGTERM/SIGUSR1 are caught since before MPI started (cli::prepare_process, catch_stop_signals).
  const std::string checkpoint = options.checkpoint.empty() ? options.output.output + ".ckpt" : options.checkpoint;
  // Rank 0 holds the checkpoint path from here to the end of the job (its lock goes last).
  std::optional<select::CheckpointFile> checkpoint_file;
  mpi::collective_step(comm, [&] {
    exporting::check_where_options(options.where);
    options.output.check_target(comm.rank() == 0);
    if (comm.rank() == 0) checkpoint_file.emplace(checkpoint, options.resume, options.output.force);
  });
  const Inputs in = agreed_inputs(comm, options);
  SelectRun run;
  select::Corpora corpora = read_corpora(comm, options, in, run.counts);
  run.in_seed = options.skip_seed_lines ? select::flag_seed_lines(comm, corpora, options.side, options.length_cap) : 0;
  if (options.where.given()) run.left_out = leave_out(comm, options, corpora.available);
  std::vector<std::uint32_t> lexicon_id;
  const select::Statistics stats = select::gather_statistics(comm, corpora, options.side, lexicon_id);
  if (stats.repr_tokens == 0)  // every rank sees the same replicated counts
    mpi::fail_everywhere(cat("the representative corpus (", Option::representative, ") has no tokens: nothing to select for"), 2);
  std::vector<std::size_t> junk;
  const select::AvailableLines lines =
      select::available_lines(corpora.available, options.side, lexicon_id, options.length_cap, junk);

  const select::Fingerprint print = fingerprint(comm, options, in, corpora);
  std::optional<select::SelectionState> resume;
  if (options.resume)
    resume = resume_state(comm, checkpoint, {print, run.counts.lines, stats.lexicon.size()});
  else
    mpi::collective_step(comm, [&] {
      if (checkpoint_file) checkpoint_file->check_found(print);
    });
  Checkpoints checkpoints(comm, checkpoint_file ? &*checkpoint_file : nullptr, print, options.checkpoint_every,
                          resume ? std::optional<std::size_t>(resume->ranked.size()) : std::nullopt);
  Progress progress(comm.rank() == 0, "select", "lines");
  const select::Selection selection = select::select_lines(
      comm, stats, lines, cynical_options(options),
      [&](std::uint64_t done, std::uint64_t total, double h) {
        progress.update(done, total ? double(done) / double(total) : 1.0, cat("H ", h));
      },
      checkpoints.interrupt(), resume ? &*resume : nullptr);
  run.interrupted = selection.interrupted;
  if (run.interrupted) return run;  // the checkpoint's line said so
  progress.finish(selection.ranked.size());

  const results::SelectionTable table = results::selection_table(comm, selection, stats, corpora.available, junk, options.stop);
  mpi::collective_step(comm, [&] {
    hdf5::OutputFile file(options.output.output, options.output.force, comm, options.output.compression);
    results::write_run_attributes(comm, file, "select", config_toml, in.available, corpora.available, run.counts);
    results::write_selection(comm, file, table, run.counts.lines, selection, stats, run.in_seed, run.left_out);  // every AVAIL line
    file.commit();
  });
  if (checkpoint_file) checkpoint_file->remove_own();  // done: its checkpoint must not be resumed

  run.ranked = selection.ranked.size();
  run.seed_given = corpora.seed.has_value();
  run.lexicon = stats.lexicon.size();
  run.repr_tokens = stats.repr_tokens;
  run.stop_rank = selection.stop_rank;
  run.h_initial = selection.h_initial;
  const bool ranks_here = comm.rank() == 0 && selection.stop_rank > 0;  // rank 0 holds the ranked lines
  run.h_stop = ranks_here ? selection.ranked[selection.stop_rank - 1].cross_entropy : selection.h_initial;
  return run;
}

}  // namespace tdcone::jobs
