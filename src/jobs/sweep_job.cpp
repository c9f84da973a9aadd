#include "tdcone/jobs/sweep_job.hpp"

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/entropy/pair_groups.hpp"
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
  entropy::ThresholdGroups subsets;
  mpi::collective_step(comm, [&] {
    subsets = entropy::threshold_groups(comm, job.share, swept_values(job.share, config.by), config.below,
                                        config.thresholds, config.sample, config.seed);
  });
  SweepRun run;
  run.counts = job.counts;
  if (job.duplicates) run.duplicates = job.duplicates->counts();
  run.scores = score_corpus_job(comm, job, config.engine, config.reference, subsets.groups);
  run.with_reference = job.reference.has_value();
  run.subset_size = subsets.subset_size;
  const std::size_t n = config.thresholds.size();
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
    file.commit();
  });
  add_write_phase(run.scores, write_clock.seconds());
  return run;
}

}  // namespace tdcone::jobs
