#include <boost/mpi/collectives.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <xxhash.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <limits>
#include <optional>

#include "tdcone/pipeline/select_job.hpp"

#include "tdcone/core/progress.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/mpi/agreement.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/core/guard.hpp"
#include "tdcone/pipeline/read_stage.hpp"
#include "tdcone/pipeline/result_writer.hpp"
#include "tdcone/select/checkpoint.hpp"
#include "tdcone/select/corpora.hpp"

namespace tdcone::pipeline {

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
                              '|', format_name(o.corpus.format), '|', o.corpus.src_col, '|', o.corpus.tgt_col, '|', o.corpus.src_field,
                              '|', o.corpus.tgt_field, '|', tokenizer_name(o.corpus.tokenizer), '|', o.corpus.lowercase, '|',
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
                             LineCounts& available_counts) {
  select::Corpora c;
  // Every input given must have a usable line: an empty or all-bad SEED or
  // UNAD would silently change the model. SEED and UNAD not given are fine.
  BadLinePolicy policy = o.corpus.bad_line_policy();
  policy.hint = cat("--format (", format_name(o.corpus.format), " here), --side (", side_name(line_side(o.side)),
                    " here), the per-input sides and ",
                    o.corpus.format == io::Format::jsonl ? "--src-field/--tgt-field" : "--src-col/--tgt-col");
  c.representative = pipeline::read_files(comm, in.representative, read_options(o, in.representative_side), c.vocabulary,
                                          "representative");
  c.representative_side = counted_side(in.representative_side);
  account_lines(comm, c.representative, in.representative, policy, "REPR, --representative");
  c.available = pipeline::read_files(comm, in.available, read_options(o, line_side(o.side)), c.vocabulary, "available");
  available_counts = account_lines(comm, c.available, in.available, policy, "AVAIL, --available");
  if (!in.unadapted.empty()) {
    c.unadapted = pipeline::read_files(comm, in.unadapted, read_options(o, in.unadapted_side), c.vocabulary, "unadapted");
    c.unadapted_side = counted_side(in.unadapted_side);
    account_lines(comm, *c.unadapted, in.unadapted, policy, "UNAD, --unadapted");
  }
  if (!in.seed.empty()) {
    c.seed = pipeline::read_files(comm, in.seed, read_options(o, in.seed_side), c.vocabulary, "seed");
    c.seed_side = counted_side(in.seed_side);
    account_lines(comm, *c.seed, in.seed, policy, "SEED, --seed-corpus");
  }
  return c;
}

// The rows of /selection, on rank 0: ranked lines, then junk and bad lines in input order.
struct SelectionTable {
  std::vector<std::uint64_t> pair_id, rank;
  std::vector<double> delta_h, penalty, gain, cross_entropy, wge;
  std::vector<std::string> root_word;
  std::vector<std::uint8_t> flags;

  void add(std::uint64_t id, double dh, double p, double g, double h, std::string root, double w, std::uint8_t f) {
    pair_id.push_back(id);
    rank.push_back(pair_id.size());
    delta_h.push_back(dh);
    penalty.push_back(p);
    gain.push_back(g);
    cross_entropy.push_back(h);
    root_word.push_back(std::move(root));
    wge.push_back(w);
    flags.push_back(f);
  }
};

}  // namespace

void catch_stop_signals() {
  std::signal(SIGTERM, request_stop);
  std::signal(SIGUSR1, request_stop);
}

SelectRun run_select_job(const boost::mpi::communicator& comm, const SelectConfig& options, const std::string& config_toml) {
  // SIGTERM/SIGUSR1 are caught since main() (catch_stop_signals).
  Inputs in;
  const std::string checkpoint = options.checkpoint.empty() ? options.output.output + ".ckpt" : options.checkpoint;
  mpi::collective_step(comm, [&] {
    options.output.check_target(comm.rank() == 0);
    if (comm.rank() == 0) select::check_checkpoint_path(checkpoint, options.resume);
  });
  in.representative = mpi::agreed_inputs(comm, options.representative, "--representative");
  in.available = mpi::agreed_inputs(comm, options.available, "--available");
  if (!options.unadapted.empty()) in.unadapted = mpi::agreed_inputs(comm, options.unadapted, "--unadapted");
  if (!options.seed_corpus.empty()) in.seed = mpi::agreed_inputs(comm, options.seed_corpus, "--seed-corpus");
  mpi::collective_step(comm, [&] {
    in.representative_side = input_side(options, options.representative_side, in.representative);
    in.unadapted_side = in.unadapted.empty() ? line_side(options.side) : input_side(options, options.unadapted_side, in.unadapted);
    in.seed_side = in.seed.empty() ? line_side(options.side) : input_side(options, options.seed_side, in.seed);
  });
  LineCounts counts;
  select::Corpora corpora = read_corpora(comm, options, in, counts);
  const select::Side side = options.side;
  const std::uint64_t in_seed =
      options.skip_seed_lines ? select::flag_seed_lines(comm, corpora, side, options.length_cap) : 0;
  std::vector<std::uint32_t> lexicon_id;
  const select::Statistics stats = select::gather_statistics(comm, corpora, side, lexicon_id);
  if (stats.repr_tokens == 0)  // every rank sees the same replicated counts
    mpi::fail_everywhere("the representative corpus (--representative) has no tokens: nothing to select for", 2);
  std::vector<std::size_t> junk;
  const select::AvailableLines lines = select::available_lines(corpora.available, side, lexicon_id, options.length_cap, junk);

  select::CynicalOptions cynical;
  cynical.mincount = options.mincount;
  cynical.keep_boring = options.keep_boring;
  cynical.batch = options.batch;
  cynical.length_cap = options.length_cap;
  const select::Fingerprint print = fingerprint(comm, options, in, corpora);
  std::optional<select::SelectionState> resume;
  if (options.resume) {
    mpi::collective_step(comm, [&] {
      if (comm.rank() == 0) resume = select::read_checkpoint(checkpoint, {print, counts.lines, stats.lexicon.size()});
    });
    if (comm.rank() != 0) resume.emplace();
    boost::mpi::broadcast(comm, *resume, 0);
  }

  Stopwatch since_checkpoint;
  select::Interrupt interrupt;
  int action = 0;  // of the last poll, the same on every rank: 1 save, 2 save and stop
  interrupt.poll = [&] {
    const bool due = options.checkpoint_every > 0 && since_checkpoint.seconds() >= 60.0 * options.checkpoint_every;
    const int mine = stop_requested ? 2 : (comm.rank() == 0 && due) ? 1 : 0;
    return action = boost::mpi::all_reduce(comm, mine, boost::mpi::maximum<int>());
  };
  interrupt.save = [&](const select::SelectionState& state) {
    mpi::collective_step(comm, [&] {
      if (comm.rank() != 0) return;
      select::write_checkpoint(checkpoint, print, state);
      // A stop says it all in one line (under mpirun, scripts/mpirun.sh drops Open MPI's banner about status 75).
      if (action == 2)
        std::fprintf(stderr,
                     "tdcone select: stopped by a signal: checkpoint of %zu ranked lines written to %s; run the same "
                     "command with --resume to continue (exit status 75)\n",
                     state.ranked.size(), checkpoint.c_str());
      else
        std::fprintf(stderr, "tdcone select: checkpoint of %zu ranked lines written to %s\n", state.ranked.size(),
                     checkpoint.c_str());
    });
    since_checkpoint = Stopwatch();
  };

  Progress progress(comm.rank() == 0, "select", "lines");
  const select::Selection selection = select::select_lines(
      comm, stats, lines, cynical,
      [&](std::uint64_t done, std::uint64_t total, double h) {
        progress.update(done, total ? double(done) / double(total) : 1.0, cat("H ", h));
      },
      interrupt, resume ? &*resume : nullptr);
  SelectRun run;
  run.interrupted = selection.interrupted;
  if (run.interrupted) return run;  // the checkpoint's line said so
  progress.finish(selection.ranked.size());

  // Lines already in the seed, junk and bad lines of every rank, in input order (ranks hold consecutive pair_ids).
  std::vector<std::pair<std::uint64_t, std::uint8_t>> my_junk;
  for (std::size_t i : junk) {
    const std::uint8_t f = corpora.available.flags[i];
    my_junk.emplace_back(corpora.available.first_pair_id + i,
                         (f & text::bad_line) ? text::bad_line : (f & text::in_seed) ? text::in_seed : text::junk);
  }
  std::vector<std::vector<std::pair<std::uint64_t, std::uint8_t>>> all_junk;
  boost::mpi::gather(comm, my_junk, all_junk, 0);

  SelectionTable table;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::uint8_t cut = options.stop ? text::not_selected : 0;
  for (const select::RankedLine& r : selection.ranked)
    table.add(r.pair_id, r.delta_h, r.penalty, r.gain, r.cross_entropy, stats.lexicon[r.root_word], r.wge,
              table.pair_id.size() < selection.stop_rank ? 0 : cut);
  // After the ranked lines: those already in the seed, then junk and bad lines (SPEC §6), each in input order.
  for (const bool seed_pass : {true, false})
    for (const auto& part : all_junk)
      for (const auto& [id, flag] : part)
        if ((flag == text::in_seed) == seed_pass) table.add(id, nan, nan, nan, nan, "", nan, flag | cut);

  mpi::collective_step(comm, [&] {
    h5::OutputFile file(options.output.output, options.output.force, comm, options.output.compression);
    write_run_attributes(comm, file, "select", config_toml, in.available, corpora.available, counts);
    file.create_group("/selection");
    const std::uint64_t rows = counts.lines;  // every AVAIL line, on rank 0
    auto mine = [&](const auto& column) { return comm.rank() == 0 ? std::span(column) : decltype(std::span(column))(); };
    file.write_column("/selection/pair_id", mine(table.pair_id), 0, rows);
    file.write_column("/selection/rank", mine(table.rank), 0, rows);
    file.write_column("/selection/delta_h", mine(table.delta_h), 0, rows);
    file.write_column("/selection/penalty", mine(table.penalty), 0, rows);
    file.write_column("/selection/gain", mine(table.gain), 0, rows);
    file.write_column("/selection/cross_entropy", mine(table.cross_entropy), 0, rows);
    file.write_column("/selection/root_word", comm.rank() == 0 ? table.root_word : std::vector<std::string>(), 0, rows);
    file.write_column("/selection/wge", mine(table.wge), 0, rows);
    file.write_column("/selection/flags", mine(table.flags), 0, rows);
    file.set_attribute("/selection", "stop_rank", selection.stop_rank);
    file.set_attribute("/selection", "h_initial", selection.h_initial);
    file.set_attribute("/selection", "repr_tokens", stats.repr_tokens);
    file.set_attribute("/selection", "lexicon", static_cast<std::uint64_t>(stats.lexicon.size()));
    file.set_attribute("/selection", "in_seed", in_seed);
    file.commit();
  });
  if (comm.rank() == 0) select::remove_checkpoint(checkpoint);  // done: an old checkpoint must not be resumed

  run.counts = counts;
  run.ranked = selection.ranked.size();
  run.in_seed = in_seed;
  run.seed_given = corpora.seed.has_value();
  run.lexicon = stats.lexicon.size();
  run.repr_tokens = stats.repr_tokens;
  run.stop_rank = selection.stop_rank;
  run.h_initial = selection.h_initial;
  run.h_stop = selection.stop_rank ? selection.ranked[selection.stop_rank - 1].cross_entropy : selection.h_initial;
  return run;
}

}  // namespace tdcone::pipeline
