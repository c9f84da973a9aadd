// tdcone sweep: TD-CONE (and TD-CONE_REL) of every score-threshold subset, in one pass (SPEC §5).
#include "tdcone/cli/corpus_job.hpp"
#include "tdcone/cli/standard_output.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/cli/tables.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/core/guard.hpp"

namespace tdcone::cli {

int run_sweep(const boost::mpi::communicator& comm, const SweepOptions& options, const std::string& config_toml) {
  const Stopwatch clock;
  if (options.corpus.parallel() && options.corpus.score_col == 0)
    mpi::fail_everywhere("tdcone sweep needs a score, and --src-file/--tgt-file have none: paste the two sides and "
                         "a score column into one TSV (paste src tgt scores > corpus.tsv) and give --input with --score-col 3", 2);
  if (!options.corpus.read_options().fields.has_score())
    mpi::fail_everywhere("tdcone sweep needs a score: give --score-col (TSV) or --score-field (JSONL)", 2);
  const CorpusJob job = read_corpus_job(comm, options.corpus, options.reference, options.output);
  entropy::ThresholdGroups subsets;
  mpi::collective_step(comm, [&] {
    subsets = entropy::threshold_groups(comm, job.share, options.thresholds, options.sample, options.seed);
  });
  JobScores scores = score_corpus_job(comm, job, options.engine, options.reference, subsets.groups);
  const bool with_reference = job.reference.has_value();
  const std::size_t n = options.thresholds.size();
  std::vector<std::uint64_t> sampled(n);
  for (std::size_t t = 0; t < n; ++t) sampled[t] = scores.subsets[1 + t].n_pairs;

  const Stopwatch write_clock;
  mpi::collective_step(comm, [&] {
    h5::OutputFile file(options.output.output, options.output.force, comm, options.output.compression_kind());
    write_run_attributes(comm, file, "sweep", config_toml, job.recorded_files(), job.share, job.counts);
    write_corpus_group(file, scores, with_reference);
    write_pairs(comm, file, job.share, options.corpus.read_options().fields, scores.pair_tdcone, scores.pair_rank);
    file.write_column("/pairs/sweep_mask", std::span<const std::uint64_t>(subsets.mask_of_pair),
                      job.share.first_pair_id, job.share.total_lines);
    SubsetTable table(comm, file, "/sweep");
    table.column("threshold", options.thresholds);
    table.column("n_pairs", subsets.subset_size);
    table.column("n_sampled", sampled);
    table.scores(scores.subsets, 1, n, with_reference);
    file.commit();
  });
  add_write_phase(scores, write_clock.seconds());
  print_summary(comm, "sweep", options.output.output, job.counts, scores, with_reference, clock.seconds());
  if (comm.rank() == 0) {
    std::printf("  %-10s %10s %10s %10s%s\n", "threshold", "n_pairs", "n_sampled", "tdcone",
                with_reference ? "  tdcone_rel" : "");
    for (std::size_t t = 0; t < n; ++t) {
      std::printf("  %-10g %10llu %10llu %10.7f", options.thresholds[t], (unsigned long long)subsets.subset_size[t],
                  (unsigned long long)sampled[t], scores.subsets[1 + t].tdcone);
      if (with_reference) std::printf("  %10.7f", scores.subsets[1 + t].tdcone_rel);
      std::printf("\n");
    }
    std::size_t empty = 0;
    for (std::size_t t = 0; t < n; ++t) empty += subsets.subset_size[t] == 0 ? 1 : 0;
    if (empty > 0)
      std::printf("  warning: %zu of %zu thresholds select no pair (|S_t| = 0, no score >= t): TD-CONE%s NaN\n", empty,
                  n, with_reference ? ", KL and TD-CONE_REL" : "");
  }
  return finish_standard_output(comm);
}

}  // namespace tdcone::cli
