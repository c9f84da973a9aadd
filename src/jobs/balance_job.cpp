#include "tdcone/jobs/balance_job.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cmath>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/mpi/global_rank.hpp"
#include "tdcone/results/checks.hpp"
#include "tdcone/results/writer.hpp"
#include "tdcone/exporting/where_filter.hpp"

namespace tdcone::jobs {

namespace {

// The names of the command line (--mode, --rank-by), as /balance records them.
std::string balance_mode_name(label::BalanceMode mode) {
  return mode == label::BalanceMode::marginal ? "marginal" : mode == label::BalanceMode::skewed ? "skewed" : "joint";
}
std::string rank_by_name(RankBy rank_by) {
  return rank_by == RankBy::cynical ? "cynical" : rank_by == RankBy::random ? "random" : "tdcone";
}

void check_options(const BalanceConfig& o) {
  if (!o.labels.given())
    throw UsageError(cat("balance needs labels: ", Option::label_cols, " (TSV) or ", Option::label_fields, " (JSONL)"));
  if (o.size > 0 && o.mode != label::BalanceMode::skewed)
    throw UsageError(cat(Option::size, " is the total of ", Option::mode, " skewed"));
  if (o.rank_by == RankBy::cynical && o.ranking.empty())
    throw UsageError(cat(Option::rank_by, " cynical takes the ranks of a select result of this corpus: give it with ",
                         Option::ranking));
  if (o.rank_by == RankBy::random && !o.ranking.empty())
    throw UsageError(cat(Option::ranking, " is for ", Option::rank_by, " tdcone or cynical"));
  if (!o.ranking.empty()) exporting::check_result_path(Option::ranking, o.ranking);
  exporting::check_where_options(o.where);
}

// Per local pair: the sort key of --rank-by from the --ranking file (lower first).
std::vector<double> keys_from_ranking(const BalanceConfig& o, const text::TokenizedShare& share) {
  const hdf5::Reader reader(o.ranking);
  results::check_tdcone_result(reader, o.ranking);
  const char* table = o.rank_by == RankBy::tdcone ? schema::pairs::group : schema::selection::group;
  results::check_result_table(reader, o.ranking, table, cat(Option::rank_by, " ", rank_by_name(o.rank_by)));
  exporting::check_same_corpus(reader, Option::ranking, o.ranking, share, o.read_run_config);
  if (o.rank_by == RankBy::tdcone) {
    results::check_pair_id_rows(reader, o.ranking, table, share.first_pair_id, share.size());
    return reader.read_double(schema::pairs::tdcone.path(), share.first_pair_id,
                              share.size());  // this rank's pairs only
  }
  const std::vector<std::uint64_t> pair_id = reader.read_uint(schema::selection::pair_id.path()),
                                    rank = reader.read_uint(schema::selection::rank.path());
  results::check_pair_ids(o.ranking, table, pair_id, results::recorded_line_count(reader));
  // Rows are in selection order: this rank picks out its pairs (a line the selection did not rank goes last).
  std::vector<double> keys(share.size(), std::nan(""));
  for (std::size_t r = 0; r < pair_id.size(); ++r)
    if (pair_id[r] >= share.first_pair_id && pair_id[r] - share.first_pair_id < share.size())
      keys[pair_id[r] - share.first_pair_id] = static_cast<double>(rank[r]);
  return keys;
}

// --where: the usable lines that fail it are flagged left_out and taken out of
// their combination; the combination counts stay global. Returns the lines
// left out, over all ranks. Collective.
std::uint64_t leave_out(const boost::mpi::communicator& comm, const BalanceConfig& o, text::TokenizedShare& share,
                        label::PairLabels& labels) {
  std::vector<std::uint64_t> removed(labels.counts.size() + 1, 0);  // per combination; the last: lines left out
  mpi::collective_step(comm, [&] {
    const std::vector<std::uint8_t> passes = exporting::passes_where(o.where, share, o.read_run_config);
    for (std::size_t i = 0; i < share.size(); ++i) {
      if (passes[i] || (share.flags[i] & schema::bad_line)) continue;
      share.flags[i] |= schema::left_out;
      ++removed.back();
      std::uint32_t& combination = labels.combination_of_pair[i];
      if (combination == label::kNoCombination) continue;
      ++removed[combination];
      combination = label::kNoCombination;
    }
  });
  removed = mpi::sum_all(MPI_Comm(comm), removed);
  for (std::size_t k = 0; k < labels.counts.size(); ++k) {
    labels.counts[k] -= removed[k];
    labels.labelled -= removed[k];
  }
  return removed.back();
}

// Seeded random order: a hash of (pair_id, seed), 53 bits so that a double holds it exactly.
std::vector<double> random_keys(const text::TokenizedShare& share, std::uint64_t seed) {
  std::vector<double> keys(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) {
    const std::uint64_t pair_id = share.first_pair_id + i;
    keys[i] = static_cast<double>(XXH3_64bits_withSeed(&pair_id, sizeof pair_id, seed) >> 11);
  }
  return keys;
}

struct Balance {
  label::BalancePlan plan;
  std::vector<std::uint64_t> rank_in_combination;  // per local pair; 0: no combination
  std::vector<std::uint8_t> kept;
};

// Keeps the first quota[k] lines of each combination k by `rank_in_combination`.
Balance balance_pairs(const label::PairLabels& labels, const label::BalanceRequest& request,
                      std::vector<std::uint64_t> rank_in_combination) {
  Balance b;
  b.plan = label::plan_balance({labels.space.values_per_label(), labels.counts}, request);
  b.rank_in_combination = std::move(rank_in_combination);
  b.kept.resize(b.rank_in_combination.size(), 0);
  for (std::size_t i = 0; i < b.kept.size(); ++i) {
    const std::uint32_t k = labels.combination_of_pair[i];
    b.kept[i] = k != label::kNoCombination && b.rank_in_combination[i] <= b.plan.quota[k];
  }
  return b;
}

void write_balance(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const BalanceConfig& o,
                   const text::TokenizedShare& share, const label::PairLabels& labels,
                   const std::vector<std::string>& names, const Balance& b) {
  const std::uint64_t offset = share.first_pair_id, total = share.total_lines;
  std::vector<std::uint64_t> pair_id(share.size());
  std::vector<std::string> combination(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) {
    pair_id[i] = offset + i;
    if (labels.combination_of_pair[i] != label::kNoCombination) combination[i] = names[labels.combination_of_pair[i]];
  }
  file.create_group(schema::balance::group);
  file.write_column(schema::balance::pair_id.path(), std::span<const std::uint64_t>(pair_id), offset, total);
  file.write_column(schema::balance::combination.path(), combination, offset, total);
  file.write_column(schema::balance::kept.path(), std::span<const std::uint8_t>(b.kept), offset, total);
  file.write_column(schema::balance::rank_in_combination.path(), std::span<const std::uint64_t>(b.rank_in_combination),
                    offset, total);
  file.write_column(schema::balance::flags.path(), std::span<const std::uint8_t>(share.flags), offset, total);
  results::set_attribute(file, schema::balance::mode, balance_mode_name(o.mode));
  results::set_attribute(file, schema::balance::rank_by, rank_by_name(o.rank_by));
  results::set_attribute(file, schema::balance::min_share, o.min_share);
  results::set_attribute(file, schema::balance::labels, [&] {
    std::string names;
    for (const auto& name : labels.space.names) names += (names.empty() ? "" : "|") + name;
    return names;
  }());
  results::set_attribute(file, schema::balance::n_labelled, b.plan.total_before);
  results::set_attribute(file, schema::balance::n_kept, b.plan.total_after);
  results::set_attribute(file, schema::balance::share_std_before, b.plan.share_std_before);
  results::set_attribute(file, schema::balance::share_std_after, b.plan.share_std_after);
  for (std::size_t l = 0; l < labels.space.names.size(); ++l)
    file.set_attribute(schema::balance::marginal_deviation.object,
                       schema::balance::marginal_deviation.name_with(labels.space.names[l]), b.plan.marginal_deviation[l]);

  results::SubsetTable table(comm, file, schema::combinations::group);
  table.column(schema::combinations::combination, names);
  table.column(schema::combinations::before, labels.counts);
  table.column(schema::combinations::target, b.plan.target);
  table.column(schema::combinations::after, b.plan.quota);
  table.column(schema::combinations::under_represented, b.plan.under_represented);
}

}  // namespace

BalanceRun run_balance_job(const boost::mpi::communicator& comm, const BalanceConfig& options,
                           const std::string& config_toml) {
  mpi::collective_step(comm, [&] { check_options(options); });
  CorpusJob job = read_corpus_job(comm, options.corpus, config::ReferenceConfig{}, options.output, &options.labels);
  BalanceRun run;
  run.counts = job.counts;
  run.labels = std::move(*job.labels);
  if (options.where.given()) run.left_out = leave_out(comm, options, job.share, run.labels);
  run.names = run.labels.space.combination_names();
  const label::PairLabels& labels = run.labels;

  // TD-CONE without a ranking file is scored here (and /labels with --by-label:
  // subsets split the matrix's cells by combination, which costs time and memory).
  const bool rank_here = options.rank_by == RankBy::tdcone && options.ranking.empty();
  const auto combinations = static_cast<std::uint32_t>(labels.counts.size());
  std::vector<std::uint64_t> rank_in_combination;
  if (rank_here || options.by_label) {
    entropy::PairGroups groups;
    mpi::collective_step(comm, [&] {
      if (options.by_label) run.subsets = results::label_subsets(job.share, labels);
      groups = options.by_label ? run.subsets.groups : entropy::corpus_groups(job.share);
    });
    // Ranked within combinations by the engine's own sort when TD-CONE is the ranking.
    const std::span<const std::uint32_t> rank_groups = labels.combination_of_pair;
    run.scores = score_corpus_job(comm, job, options.engine, config::ReferenceConfig{}, groups,
                                  rank_here ? rank_groups : rank_groups.first(0), rank_here ? combinations : 0);
    rank_in_combination = run.scores->pair_rank_in_group;
  }
  if (!rank_here) {
    std::vector<double> keys;
    mpi::collective_step(comm, [&] {
      keys = options.ranking.empty() ? random_keys(job.share, options.seed) : keys_from_ranking(options, job.share);
    });
    rank_in_combination =
        mpi::global_ranks_within(comm, keys, job.share.first_pair_id, labels.combination_of_pair, combinations);
  }
  label::BalanceRequest request;
  request.mode = options.mode;
  request.min_share = options.min_share;
  request.size = options.size;
  Balance balance;
  mpi::collective_step(comm, [&] { balance = balance_pairs(labels, request, std::move(rank_in_combination)); });

  const Stopwatch write_clock;
  mpi::collective_step(comm, [&] {
    hdf5::OutputFile file(options.output.output, options.output.force, comm, options.output.compression);
    results::write_run_attributes(comm, file, "balance", config_toml, job.recorded_files(), job.share, job.counts);
    if (const auto& scores = run.scores) {
      write_corpus_group(file, *scores, false);
      results::write_pairs(comm, file, job.share, options.corpus.read_options().fields, scores->pair_tdcone, scores->pair_rank);
      if (options.by_label) results::write_label_table(comm, file, run.subsets.names, scores->subsets, 1, false);
    }
    write_balance(comm, file, options, job.share, labels, run.names, balance);
    file.commit();
  });
  if (run.scores) add_write_phase(*run.scores, write_clock.seconds());
  run.plan = std::move(balance.plan);
  return run;
}

}  // namespace tdcone::jobs
