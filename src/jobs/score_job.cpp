#include "tdcone/jobs/score_job.hpp"

#include "tdcone/core/error.hpp"
#include "tdcone/jobs/replicate_scores.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/results/diversity_columns.hpp"
#include "tdcone/results/writer.hpp"

namespace tdcone::jobs {

namespace {

// --shard-by file: the files of each shard (file i is in shard i mod K; for
// --src-file/--tgt-file the src files), named by `name`, ", " between them.
std::vector<std::string> shard_files(const std::vector<io::InputFile>& files, std::size_t shards,
                                     std::string (*name)(const io::InputFile&)) {
  std::vector<std::string> names(shards);
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::string& shard = names[i % shards];
    shard += (shard.empty() ? "" : ", ") + name(files[i]);
  }
  return names;
}

}  // namespace

ScoreRun run_score_job(const boost::mpi::communicator& comm, const ScoreConfig& config, const std::string& config_toml) {
  if (config.by_label != config.labels.given())
    mpi::fail_everywhere(config.by_label ? cat(Option::by_label, " needs ", Option::label_cols, " (TSV) or ",
                                               Option::label_fields, " (JSONL)")
                                         : cat("labels are read for ", Option::by_label, ": add it (or use tdcone balance)"),
                         2);
  if (const std::string problem = results::length_buckets_problem(config.length_buckets); !problem.empty())
    mpi::fail_everywhere(cat(Option::length_buckets, ": ", problem), 2);
  CorpusJob job = read_corpus_job(comm, config.corpus, config.reference, config.output, &config.labels);
  // The counts are global, so every rank stops here together: a shard per line
  // at most, or a typo's billions of shards would take their memory first.
  if (config.shards > job.counts.scored)
    mpi::fail_everywhere(cat(Option::shards, ": ", config.shards, " is more than the ", job.counts.scored,
                             " usable lines of the corpus (at most one shard a line)"), 2);
  ScoreRun run;
  run.counts = job.counts;
  if (job.duplicates) run.duplicates = job.duplicates->counts();
  run.with_reference = job.reference.has_value();
  run.by_label = job.labels.has_value();
  const bool by_file = config.shard_by == entropy::ShardBy::file;
  std::size_t& shards = run.shards = config.shards;
  if (by_file && shards == 0) shards = job.files.size();
  std::vector<std::uint32_t> shard_of_pair;
  entropy::PairGroups groups;
  mpi::collective_step(comm, [&] {
    if (shards == 0) {
      groups = entropy::corpus_groups(job.share);
      return;
    }
    shard_of_pair = entropy::assign_shards(job.share, shards, config.shard_by, config.seed);
    groups = entropy::shard_groups(job.share, shard_of_pair, shards);
  });
  // Label subsets follow the shards': subset 1 + shards + j is /labels row j.
  if (job.labels) {
    run.labels = results::label_subsets(job.share, *job.labels);
    groups = shards == 0 ? run.labels.groups : entropy::combine_groups(comm, groups, run.labels.groups);
  }
  run.first_label = 1 + shards;
  // Length buckets follow the labels': subset first_length + k is /lengths row k.
  run.first_length = groups.subset_count;
  if (!config.length_buckets.empty()) {
    entropy::PairGroups buckets;
    mpi::collective_step(comm, [&] { buckets = entropy::length_groups(job.share, config.length_buckets); });
    groups = entropy::combine_groups(comm, groups, buckets);
  }
  // The tables whose rows are subsets: the corpus, then those the run has.
  std::vector<results::TableRows> tables{{"corpus", 0, 1, {}}};
  if (shards > 0) tables.push_back({"shards", 1, shards, {}});
  if (job.labels)
    tables.push_back({"labels", run.first_label, run.labels.names.size(), results::label_row_kinds(run.labels.names)});
  if (!config.length_buckets.empty()) tables.push_back({"lengths", run.first_length, config.length_buckets.size() + 1, {}});
  double replicate_seconds = 0;
  if (config.sample.given() || config.sample.curve_asked()) {
    // Before the job's own scoring, which gives the shares' word types back.
    const Stopwatch clock;
    const std::vector<bool> replicated(groups.subset_count, true);
    std::vector<std::uint64_t> sizes;
    mpi::collective_step(comm, [&] { sizes = entropy::subset_sizes(comm, groups); });
    if (config.sample.given()) {
      std::vector<bool> compared(groups.subset_count, groups.subset_count == 1);
      std::fill(compared.begin() + 1, compared.end(), true);
      const std::uint64_t sample = config.sample.automatic ? automatic_sample(sizes, compared) : config.sample.sample;
      run.replicates = score_replicates(comm, job, config.engine, config.reference, groups, replicated, config.sample,
                                        sample, 0);
    }
    if (config.sample.curve_asked())
      run.curve = score_curve(comm, job, config.engine, config.reference, groups, replicated, config.sample,
                              config.sample.at_sizes_auto ? automatic_sizes(sizes[0]) : config.sample.at_sizes, tables,
                              run.with_reference);
    replicate_seconds = clock.seconds();
  }
  run.scores = score_corpus_job(comm, job, config.engine, config.reference, groups);
  if (replicate_seconds > 0) run.scores.phases.push_back({"replicates", replicate_seconds});
  if (run.replicates.ran())
    for (const results::TableRows& table : tables)
      run.intervals.push_back(results::table_intervals(run.replicates, table, run.with_reference));

  const Stopwatch write_clock;
  mpi::collective_step(comm, [&] {
    hdf5::OutputFile file(config.output.output, config.output.force, comm, config.output.compression);
    write_scored_corpus(comm, file, "score", config_toml, job, config.corpus, run.scores, run.with_reference);
    if (shards > 0) {
      file.write_column(schema::pairs::shard.path(), std::span<const std::uint32_t>(shard_of_pair),
                        job.share.first_pair_id, job.share.total_lines);
      std::vector<std::uint64_t> shard_ids(shards), pairs(shards);
      for (std::size_t k = 0; k < shards; ++k) {
        shard_ids[k] = k;
        pairs[k] = run.scores.subsets[1 + k].n_pairs;
      }
      results::SubsetTable table(comm, file, schema::shards::group);
      table.column(schema::shards::shard, shard_ids);
      if (by_file) table.column(schema::shards::file, shard_files(job.files, shards, results::recorded_path));
      table.column(schema::shards::n_pairs, pairs);
      table.scores(schema::shards::scores, run.scores.subsets, 1, shards, run.with_reference);
    }
    if (job.labels) results::write_label_table(comm, file, run.labels.names, run.scores.subsets, run.first_label, run.with_reference);
    if (!config.length_buckets.empty())
      results::write_length_table(comm, file, config.length_buckets, run.scores.subsets, run.first_length, run.with_reference);
    for (const results::TableIntervals& table : run.intervals) {
      if (table.table == "shards")
        results::write_table_replicate_columns(comm, file, table, run.replicates.sampled, &schema::shards::n_sampled,
                                               schema::shards::p_best);
      if (table.table == "labels")
        results::write_table_replicate_columns(comm, file, table, run.replicates.sampled, &schema::labels::n_sampled,
                                               schema::labels::p_best);
      if (table.table == "lengths")
        results::write_table_replicate_columns(comm, file, table, run.replicates.sampled, &schema::lengths::n_sampled,
                                               schema::lengths::p_best);
    }
    if (run.replicates.ran())
      results::write_replicate_groups(comm, file, run.replicates, run.intervals, run.scores.subsets, run.with_reference);
    if (!run.curve.empty())
      results::write_curves(comm, file, run.curve, config.sample.replicates, config.sample.seed, run.with_reference);
    file.commit();
  });
  add_write_phase(run.scores, write_clock.seconds());
  if (by_file && shards > 0)
    run.shard_files = shard_files(job.files, shards, [](const io::InputFile& f) { return f.path; });
  return run;
}

}  // namespace tdcone::jobs
