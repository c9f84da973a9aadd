// tdcone select: distributed batch-mode cynical data selection (docs/spec.md §6, §8 /selection).
#include "tdcone/cli/select_command.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "tdcone/cli/run_config.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/results/standard_output.hpp"

namespace tdcone::cli {

namespace {

jobs::LineSide line_side(const std::string& name) {
  return from_name<jobs::LineSide>(name, {{"auto", jobs::LineSide::automatic}, {"src", jobs::LineSide::src},
                                              {"tgt", jobs::LineSide::tgt}, {"both", jobs::LineSide::both},
                                              {"line", jobs::LineSide::line}});
}

// Whether `a` and `b` name one file: the same device and inode when both
// exist, else the same path once resolved (./out.h5, dir/../out.h5, a link).
bool same_file(const std::string& a, const std::string& b) {
  struct stat first, second;
  if (::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0)
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
  const auto resolved = [](const std::string& path) {
    std::error_code error;
    std::filesystem::path full = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
    return error ? std::filesystem::path() : full;
  };
  const std::filesystem::path resolved_a = resolved(a);
  return !resolved_a.empty() && resolved_a == resolved(b);
}

// A stop would leave the checkpoint under the result's name, which --resume then refuses to write.
void refuse_checkpoint_as_output(const jobs::SelectConfig& c) {
  if (!c.checkpoint.empty() && same_file(c.checkpoint, c.output.output))
    throw UsageError(cat("--checkpoint ", c.checkpoint, " is the --output file ", c.output.output,
                         ": give the checkpoint another name (by default it is OUTPUT.ckpt)"));
}

}  // namespace

void add_select_options(OptionSet& o, SelectOptions& s) {
  jobs::SelectConfig& c = s.config;
  o.add("representative", c.representative, "REPR: text the selection should model (files or globs)")->required();
  o.add("available", c.available, "AVAIL: the corpus to rank (files or globs); sharded over ranks")->required();
  o.add("unadapted", c.unadapted, "UNAD: the general-domain corpus of the word ratios (default: AVAIL)");
  o.add("seed-corpus", c.seed_corpus, "SEED: text already selected; the model starts from it (default: empty)");
  o.add("side", s.side,
        "Which text of an AVAIL pair is the line: src, tgt, or both (src tokens then tgt tokens); also of REPR, UNAD "
        "and SEED when they hold pairs (see --representative-side)",
        one_of({"src", "tgt", "both"}));
  const std::string per_input =
      ": src, tgt, both, line (the whole line, for a file of one sentence per line) or auto: line when its first "
      "non-empty line has one column (TSV: no tab; JSONL: not a JSON object), else --side";
  o.add("representative-side", s.representative_side, "Which text of a REPR line is the line" + per_input,
        one_of({"auto", "src", "tgt", "both", "line"}));
  o.add("unadapted-side", s.unadapted_side, "The same for UNAD", one_of({"auto", "src", "tgt", "both", "line"}));
  o.add("seed-side", s.seed_side, "The same for SEED", one_of({"auto", "src", "tgt", "both", "line"}));
  s.corpus.add_to(o, c.corpus, "lines");
  o.add("mincount", c.mincount, "Words seen fewer times in both REPR and UNAD are not selectable",
        whole_number(0, kAnyCount));
  o.add_switch("keep-boring", c.keep_boring, "Keep words with e^-1 < ratio < e selectable");
  o.add_switch("batch", c.batch, "Select ceil(sqrt(k)) lines per iteration (k = lines of the best word), else one");
  o.add("length-cap", c.length_cap, "AVAIL lines with more tokens are junk (ranked last)",
        whole_number(1, std::numeric_limits<std::uint32_t>::max()));
  o.add_switch("skip-seed-lines", c.skip_seed_lines,
               "AVAIL lines whose text (on --side, exact bytes) is a --seed-corpus line are not selected: flagged 8 "
               "and ranked after the selectable lines, before junk");
  o.add_switch("stop", c.stop, "Keep only the lines up to stop_rank selected (the rest flagged 4, not selected)");
  o.add("checkpoint", c.checkpoint,
        "Checkpoint file written on SIGTERM/SIGUSR1 (then exit 75) and by --checkpoint-every (default: OUTPUT.ckpt); "
        "absent or a tdcone checkpoint, never another file");
  o.add_action_flag("resume", c.resume, "Continue from the checkpoint of an interrupted run with the same inputs and options");
  o.add("checkpoint-every", c.checkpoint_every, "Also write a checkpoint every this many minutes (0 = never)",
        real_number(0, kInfinity));
  add_where_options(o, c.where, "Rank only the AVAIL lines",
                    "The other lines are flagged 128 (left_out), count nowhere (not in AVAIL's counts, nor in UNAD's "
                    "when it is AVAIL) and are ranked after the selectable lines and those in the seed, before junk");
  s.output.add_to(o, c.output);
}

int run_select(const boost::mpi::communicator& comm, const SelectOptions& options, const std::string& config_toml) {
  const Stopwatch clock;
  jobs::SelectConfig config = options.config;
  options.corpus.resolve(config.corpus);
  options.output.resolve(config.output);
  config.side = side_from_name(options.side);
  config.representative_side = line_side(options.representative_side);
  config.unadapted_side = line_side(options.unadapted_side);
  config.seed_side = line_side(options.seed_side);
  config.read_run_config = read_run_settings;
  mpi::collective_step(comm, [&] { refuse_checkpoint_as_output(config); });
  const jobs::SelectRun run = jobs::run_select_job(comm, config, config_toml);
  if (run.interrupted) return jobs::kExitInterrupted;  // the checkpoint's line said so
  if (comm.rank() == 0) {
    std::printf("tdcone select: %s\n", config.output.output.c_str());
    std::printf("  AVAIL lines   %llu (ranked %zu, junk or bad %llu)\n", (unsigned long long)run.counts.lines,
                run.ranked, (unsigned long long)(run.counts.lines - run.ranked - run.in_seed - run.left_out));
    if (config.skip_seed_lines && run.seed_given)
      std::printf("  seed          %llu AVAIL lines already in the seed: skipped (flags 8)\n",
                  (unsigned long long)run.in_seed);
    if (config.where.given())
      std::printf("  left out      %llu AVAIL lines by --where on %s (flagged 128)\n", (unsigned long long)run.left_out,
                  config.where.where_result.c_str());
    std::printf("  lexicon       %zu words, REPR %llu tokens\n", run.lexicon,
                (unsigned long long)run.repr_tokens);
    std::printf("  H_0           %.7f nats\n  stop_rank     %llu (H %.7f)\n", run.h_initial,
                (unsigned long long)run.stop_rank, run.h_stop);
    std::printf("  ranks         %d, %.2f s\n", comm.size(), clock.seconds());
  }
  return results::finish_standard_output(comm);
}

}  // namespace tdcone::cli
