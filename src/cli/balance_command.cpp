// tdcone balance: a label-balanced (or skewed) subset of a corpus, the lines
// of each combination taken best first (the multi-style balancing paper).
#include "tdcone/cli/balance_command.hpp"

#include <cstdio>

#include "tdcone/cli/run_config.hpp"
#include "tdcone/cli/summary.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/results/standard_output.hpp"

namespace tdcone::cli {

namespace {

void print_balance(const BalanceOptions& o, const label::PairLabels& labels, const std::vector<std::string>& names,
                   const label::BalancePlan& plan) {
  std::printf("  balance      --mode %s, --rank-by %s: %llu of %llu labelled lines kept\n", o.mode.c_str(),
              o.rank_by.c_str(), (unsigned long long)plan.total_after, (unsigned long long)plan.total_before);
  const int width = name_width(names, "combination");
  std::printf("  %-*s %10s %12s %10s %8s\n", width, "combination", "before", "target", "after", "share");
  for (std::size_t k = 0; k < labels.counts.size(); ++k) {
    const double share = plan.total_after ? 100.0 * static_cast<double>(plan.quota[k]) / static_cast<double>(plan.total_after) : 0.0;
    std::printf("  %-*s %10llu %12.1f %10llu %7.2f%%%s\n", width, names[k].c_str(),
                (unsigned long long)labels.counts[k], plan.target[k], (unsigned long long)plan.quota[k], share,
                labels.counts[k] == 0            ? "  absent"
                : plan.under_represented[k] != 0 ? "  under-represented (below --min-share: all kept)"
                                                 : "");
  }
  std::printf("  std of combination shares %.6f -> %.6f\n", plan.share_std_before, plan.share_std_after);
  for (std::size_t l = 0; l < labels.space.names.size(); ++l)
    std::printf("  %s: largest deviation of a value's share from 1/%zu: %.6f\n", labels.space.names[l].c_str(),
                labels.space.values[l].size(), plan.marginal_deviation[l]);
  for (const auto& warning : plan.warnings) std::printf("  warning: %s\n", warning.c_str());
}

}  // namespace

void add_balance_options(OptionSet& o, BalanceOptions& b) {
  jobs::BalanceConfig& c = b.config;
  b.corpus.add_to(o, c.corpus, "columns");  // labels are columns: no two-file corpus
  add_label_options(o, c.labels);
  o.add("mode", b.mode,
        "joint: every label combination down to the size of the rarest one holding at least --min-share of the "
        "labelled lines (rarer ones keep all they have: under-represented); marginal: each label's values equally "
        "represented, as far as the lines allow (iterative proportional fitting, then the best lines); skewed: the "
        "natural distribution at --size lines (default: the joint subset's size, for a like-for-like comparison)",
        one_of({"joint", "marginal", "skewed"}));
  o.add("min-share", c.min_share, "--mode joint (and skewed's default size): a combination below this share of the "
        "labelled lines keeps all its lines and does not set the common size", real_number(0, 1));
  o.add("size", c.size, "--mode skewed: lines in the subset (0 = the --mode joint subset's size)", whole_number(0, kAnyCount));
  o.add("rank-by", b.rank_by,
        "Which lines of a combination are kept first. tdcone: lowest pair TD-CONE (scored in this run, with /corpus "
        "and /pairs, unless --ranking gives a score result); cynical: best rank of a select result "
        "(--ranking); random: a seeded random order (--seed). Ties by pair_id",
        one_of({"tdcone", "cynical", "random"}));
  o.add("ranking", c.ranking, "A tdcone score (for --rank-by tdcone) or select (for --rank-by cynical) result of the "
        "same corpus files (checked by their recorded line counts and fingerprints), of this or an older major "
        "tdcone_version, with every /pairs (or /selection) column");
  o.add("seed", c.seed, "Seed of --rank-by random (the subset does not depend on the rank count)", whole_number(0, kAnyCount));
  add_where_options(o, c.where, "Balance only the lines",
                    "The other lines are flagged 128 (left_out) and are in no combination");
  o.add_switch("by-label", c.by_label,
               "Also score every label combination and value in the same pass (/labels, as score --by-label; the "
               "matrix then keeps a cell per combination: more time and memory)");
  b.engine.add_to(o, c.engine);
  b.output.add_to(o, c.output);
}

int run_balance(const boost::mpi::communicator& comm, const BalanceOptions& options, const std::string& config_toml) {
  const Stopwatch clock;
  jobs::BalanceConfig config = options.config;
  options.corpus.resolve(config.corpus);
  options.engine.resolve(comm, config.engine);
  options.output.resolve(config.output);
  config.mode = label::balance_mode_from_name(options.mode);
  config.rank_by = from_name<jobs::RankBy>(options.rank_by, {{"tdcone", jobs::RankBy::tdcone},
                                                                 {"cynical", jobs::RankBy::cynical},
                                                                 {"random", jobs::RankBy::random}});
  config.read_run_config = read_run_settings;
  const jobs::BalanceRun run = jobs::run_balance_job(comm, config, config_toml);
  const results::LineCounts& counts = run.counts;
  if (run.scores) {
    print_summary(comm, "balance", config.output.output, counts, *run.scores, false, clock.seconds());
  } else if (comm.rank() == 0) {
    std::printf("tdcone balance: %s\n  lines        %llu (usable %llu, flagged %llu)\n  ranks        %d, %.2f s\n",
                config.output.output.c_str(), (unsigned long long)counts.lines, (unsigned long long)counts.scored,
                (unsigned long long)counts.flagged, comm.size(), clock.seconds());
  }
  if (comm.rank() == 0) {
    if (config.by_label) print_label_table(run.subsets.names, run.scores->subsets, 1, false);
    if (config.where.given())
      std::printf("  left out     %llu lines by --where on %s (flagged 128, in no combination)\n",
                  (unsigned long long)run.left_out, config.where.where_result.c_str());
    print_balance(options, run.labels, run.names, run.plan);
  }
  return results::finish_standard_output(comm);
}

}  // namespace tdcone::cli
