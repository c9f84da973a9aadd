// tdcone sweep: TD-CONE (and TD-CONE_REL) of every score-threshold subset, in one pass (docs/spec.md §5).
#include "tdcone/cli/sweep_command.hpp"

#include <cstdio>

#include "tdcone/cli/replicate_summary.hpp"
#include "tdcone/cli/summary.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/results/standard_output.hpp"

namespace tdcone::cli {

void add_sweep_options(OptionSet& o, SweepOptions& sweep) {
  jobs::SweepConfig& c = sweep.config;
  sweep.corpus.add_to(o, c.corpus, "columns");  // a sweep needs a score column: no two-file corpus
  sweep.engine.add_to(o, c.engine);
  add_reference_options(o, c.reference);
  add_dedup_option(o, sweep.dedup);
  o.add("thresholds", c.thresholds, "Thresholds t (1-64): subset S_t = pairs with score >= t (see --sweep-by, --below)",
        real_number(-kInfinity, kInfinity))
      ->required()->delimiter(',');
  o.add("sweep-by", sweep.sweep_by, "The per-pair value the thresholds cut: score (the score column) or a diversity "
        "column of /pairs, computed in the same pass: bleu, unigram_precision or len_ratio",
        one_of({"score", "bleu", "unigram_precision", "len_ratio"}));
  o.add_switch("below", c.below, "S_t = pairs with value <= t instead of >= t (e.g. --sweep-by bleu --below: the "
             "pairs at most as similar as t; a NaN value is in no S_t)");
  sweep.sample.add_to(o, c.sample, "S_t");
  o.add("seed", c.sample.seed, "Seed of --sample (the sample does not depend on the rank count)",
        whole_number(0, kAnyCount));
  sweep.output.add_to(o, c.output);
}

int run_sweep(const boost::mpi::communicator& comm, const SweepOptions& options, const std::string& config_toml) {
  const Stopwatch clock;
  jobs::SweepConfig config = options.config;
  options.corpus.resolve(config.corpus);
  options.engine.resolve(comm, config.engine);
  options.output.resolve(config.output);
  options.sample.resolve(comm, config.sample);
  config.corpus.dedup = dedup_mode(options.dedup);
  config.by = from_name<jobs::SweepBy>(options.sweep_by, {{"score", jobs::SweepBy::score},
                                                              {"bleu", jobs::SweepBy::bleu},
                                                              {"unigram_precision", jobs::SweepBy::unigram_precision},
                                                              {"len_ratio", jobs::SweepBy::len_ratio}});
  const jobs::SweepRun run = jobs::run_sweep_job(comm, config, config_toml);
  print_summary(comm, "sweep", config.output.output, run.counts, run.scores, run.with_reference, clock.seconds());
  if (comm.rank() == 0 && run.duplicates) print_duplicates(*run.duplicates);
  const std::size_t n = config.thresholds.size();
  if (comm.rank() == 0) {
    std::printf("  %-10s %10s %10s %10s %10s%s\n", "threshold", "n_pairs", "n_sampled", "tdcone", "bleu",
                run.with_reference ? "  tdcone_rel" : "");
    for (std::size_t t = 0; t < n; ++t) {
      const entropy::SubsetScore& s = run.scores.subsets[1 + t];
      std::printf("  %-10g %10llu %10llu %10.7f %10.7f", config.thresholds[t], (unsigned long long)run.subset_size[t],
                  (unsigned long long)run.sampled[t], s.tdcone, s.diversity.bleu());
      if (run.with_reference) std::printf("  %10.7f", s.tdcone_rel);
      std::printf("\n");
    }
    std::vector<std::string> names;
    for (std::size_t t = 0; t < n; ++t) names.push_back(cat("t=", config.thresholds[t]));
    if (run.sample > 0) print_sample_shortfall(run.subset_size, run.sample, names);
    if (run.intervals) print_replicate_table(*run.intervals, run.replicates, names);
    else if (run.sample == 0) print_size_caveat(run.subset_size, "subsets S_t");
    print_curve(run.curve);
    std::size_t empty = 0;
    for (std::size_t t = 0; t < n; ++t) empty += run.subset_size[t] == 0 ? 1 : 0;
    if (empty > 0)
      std::printf("  warning: %zu of %zu thresholds select no pair (|S_t| = 0, no %s %s t): TD-CONE%s NaN\n", empty,
                  n, jobs::sweep_by_name(config.by), config.below ? "<=" : ">=",
                  run.with_reference ? ", KL and TD-CONE_REL" : "");
  }
  return results::finish_standard_output(comm);
}

}  // namespace tdcone::cli
