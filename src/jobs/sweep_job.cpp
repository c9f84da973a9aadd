#include "tdcone/jobs/sweep_job.hpp"

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/jobs/replicate_scores.hpp"
#include "tdcone/results/diversity_columns.hpp"
#include "tdcone/results/writer.hpp"

namespace tdcone::jobs {

const char* sweep_by_name(SweepBy by) {
  switch (by) {
    case SweepBy::score: return "score";
    case SweepBy::bleu: return "bleu";
    case SweepBy::unigram_precision: return "unigram_precision";
    case SweepBy::len_ratio: return "len_ratio";
  }
  return "?";
}

namespace {

// Per local pair, the value `by` thresholds.
std::vector<double> swept_values(const text::TokenizedShare& share, SweepBy by) {
  switch (by) {
    case SweepBy::score: return share.scores;
    case SweepBy::bleu: return results::pair_measure(share, results::PairMeasure::bleu);
    case SweepBy::unigram_precision: return results::pair_measure(share, results::PairMeasure::unigram_precision);
    case SweepBy::len_ratio: return results::pair_measure(share, results::PairMeasure::len_ratio);
  }
  return {};
}

}  // namespace

SweepRun run_sweep_job(const boost::mpi::communicator& comm, const SweepConfig& config, const std::string& config_toml) {
  const bool by_score = config.by == SweepBy::score;
  if (by_score && config.corpus.parallel() && config.corpus.score_col == 0)
    mpi::fail_everywhere(cat("tdcone sweep needs a score, and ", Option::src_file, "/", Option::tgt_file, " have none: "
                             "paste the two sides and a score column into one TSV (paste src tgt scores > corpus.tsv) "
                             "and give ", Option::input, " with ", Option::score_col, " 3"),
                         2);
  if (by_score && !config.corpus.read_options().fields.has_score())
    mpi::fail_everywhere(cat("tdcone sweep needs a score: give ", Option::score_col, " (TSV) or ", Option::score_field,
                             " (JSONL), or sweep a pair's diversity (", Option::sweep_by, " bleu|unigram_precision|len_ratio)"),
                         2);
  CorpusJob job = read_corpus_job(comm, config.corpus, config.reference, config.output);
  const std::vector<double> values = swept_values(job.share, config.by);
  const std::size_t n = config.thresholds.size();
  SweepRun run;
  run.sample = config.sample.sample;
  double replicate_seconds = 0;
  if (config.sample.automatic || config.sample.replicates > 1 || config.sample.curve_asked()) {
    // Every S_t whole: its size for --sample auto, and what later replicates sample.
    entropy::ThresholdGroups whole;
    mpi::collective_step(comm, [&] {
      whole = entropy::threshold_groups(comm, job.share, values, config.below, config.thresholds, 0, config.sample.seed);
    });
    std::vector<std::uint64_t> sizes{0};
    sizes.insert(sizes.end(), whole.subset_size.begin(), whole.subset_size.end());
    std::vector<bool> thresholds_only(1 + n, true);
    thresholds_only[0] = false;
    if (config.sample.automatic) run.sample = automatic_sample(sizes, thresholds_only);
    const Stopwatch clock;
    if (config.sample.replicates > 1 && config.sample.given())
      run.replicates = score_replicates(comm, job, config.engine, config.reference, whole.groups, thresholds_only,
                                        config.sample, run.sample, 1);
    if (config.sample.curve_asked()) {
      run.curve = score_curve(comm, job, config.engine, config.reference, whole.groups,
                              std::vector<bool>(1 + n, true), config.sample,
                              config.sample.at_sizes_auto ? automatic_sizes(job.counts.scored) : config.sample.at_sizes,
                              {{"corpus", 0, 1, {}}, {"sweep", 1, n, {}}}, job.reference.has_value());
    }
    replicate_seconds = clock.seconds();
  }
  entropy::ThresholdGroups subsets;
  mpi::collective_step(comm, [&] {
    subsets = entropy::threshold_groups(comm, job.share, values, config.below, config.thresholds, run.sample,
                                        config.sample.seed);
  });
  run.counts = job.counts;
  if (job.duplicates) run.duplicates = job.duplicates->counts();
  run.scores = score_corpus_job(comm, job, config.engine, config.reference, subsets.groups);
  run.with_reference = job.reference.has_value();
  if (replicate_seconds > 0) run.scores.phases.push_back({"replicates", replicate_seconds});
  if (run.replicates.ran()) {  // replicate 0: the sample scored with the corpus
    run.replicates.of_replicate.insert(run.replicates.of_replicate.begin(), run.scores.subsets);
    run.replicates.first = 0;
    run.intervals = results::table_intervals(run.replicates, {"sweep", 1, n, {}}, run.with_reference);
  }
  run.subset_size = subsets.subset_size;
  run.sampled.resize(n);
  for (std::size_t t = 0; t < n; ++t) run.sampled[t] = run.scores.subsets[1 + t].n_pairs;

  const Stopwatch write_clock;
  mpi::collective_step(comm, [&] {
    hdf5::OutputFile file(config.output.output, config.output.force, comm, config.output.compression);
    write_scored_corpus(comm, file, "sweep", config_toml, job, config.corpus, run.scores, run.with_reference);
    file.write_column(schema::pairs::sweep_mask.path(), std::span<const std::uint64_t>(subsets.mask_of_pair),
                      job.share.first_pair_id, job.share.total_lines);
    results::SubsetTable table(comm, file, schema::sweep::group);
    results::set_attribute(file, schema::sweep::sweep_by, std::string(sweep_by_name(config.by)));
    results::set_attribute(file, schema::sweep::direction, std::string(config.below ? "<=" : ">="));
    table.column(schema::sweep::threshold, config.thresholds);
    table.column(schema::sweep::n_pairs, subsets.subset_size);
    table.column(schema::sweep::n_sampled, run.sampled);
    table.scores(schema::sweep::scores, run.scores.subsets, 1, n, run.with_reference);
    if (run.intervals) {
      results::write_table_replicate_columns(comm, file, *run.intervals, {}, nullptr, schema::sweep::p_best);
      results::write_replicate_groups(comm, file, run.replicates, {*run.intervals}, run.scores.subsets,
                                      run.with_reference);
    }
    if (!run.curve.empty())
      results::write_curves(comm, file, run.curve, config.sample.replicates, config.sample.seed, run.with_reference);
    file.commit();
  });
  add_write_phase(run.scores, write_clock.seconds());
  return run;
}

}  // namespace tdcone::jobs
