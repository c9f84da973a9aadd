// tdcone score: corpus and pair TD-CONE, optional TD-CONE_REL, shards and label subsets (docs/spec.md §3-5, §8).
#include "tdcone/cli/score_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "tdcone/cli/replicate_summary.hpp"
#include "tdcone/cli/summary.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/results/standard_output.hpp"

namespace tdcone::cli {

namespace {

// The shard table, with `mark_lowest` the lowest TD-CONE_REL marked: the shard that best covers the reference.
// An empty shard has no scores: NaN, printed "nan", never marked best. `files`:
// each shard's files (--shard-by file), else empty.
void print_shards(const jobs::JobScores& scores, std::size_t shards, bool with_reference, const std::vector<std::string>& files,
                  bool mark_lowest) {
  std::size_t best = 0, empty = 0;
  for (std::size_t k = 1; k <= shards; ++k) {
    if (scores.subsets[k].n_pairs == 0) ++empty;
    if (!std::isnan(scores.subsets[k].tdcone_rel) &&
        (best == 0 || scores.subsets[k].tdcone_rel < scores.subsets[best].tdcone_rel))
      best = k;
  }
  const int width = files.empty() ? -1 : name_width(files, "file");  // -1: no file column
  std::printf("  %-6s ", "shard");
  if (width >= 0) std::printf("%-*s ", width, "file");
  std::printf("%10s %10s %10s%s\n", "n_pairs", "tdcone", "bleu", with_reference ? "  tdcone_rel" : "");
  for (std::size_t k = 1; k <= shards; ++k) {
    const auto& s = scores.subsets[k];
    std::printf("  %-6zu ", k - 1);
    if (width >= 0) std::printf("%-*s ", width, files[k - 1].c_str());
    std::printf("%10llu %10.7f %10.7f", (unsigned long long)s.n_pairs, s.tdcone, s.diversity.bleu());
    if (with_reference) std::printf("  %10.7f%s", s.tdcone_rel, mark_lowest && k == best ? "  <- lowest TD-CONE_REL" : "");
    std::printf("\n");
  }
  if (empty > 0)
    std::printf("  warning: %zu of %zu shards %s empty (no usable line): TD-CONE%s NaN\n", empty, shards,
                empty == 1 ? "is" : "are", with_reference ? ", KL and TD-CONE_REL" : "");
}

// The sizes and names of a table's rows, then what the summary says of
// comparing them: their intervals with replicates, else whether their sizes
// differ too much to compare.
void print_comparison(const jobs::ScoreRun& run, const std::string& table, std::size_t first,
                      const std::vector<std::string>& names, const std::string& what) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t row = 0; row < names.size(); ++row) sizes.push_back(run.scores.subsets[first + row].n_pairs);
  for (const results::TableIntervals& intervals : run.intervals)
    if (intervals.table == table) {
      print_sample_shortfall(sizes, run.replicates.sample, names);
      print_replicate_table(intervals, run.replicates, names);
      return;
    }
  print_size_caveat(sizes, what);
}

std::vector<std::string> numbered(const std::string& word, std::size_t count) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < count; ++k) names.push_back(cat(word, " ", k));
  return names;
}

}  // namespace

void add_score_options(OptionSet& o, ScoreOptions& score) {
  jobs::ScoreConfig& c = score.config;
  score.corpus.add_to(o, c.corpus, "required");
  score.engine.add_to(o, c.engine);
  add_reference_options(o, c.reference);
  add_dedup_option(o, score.dedup);
  o.add("shards", c.shards, "Also score K shards of the corpus (/shards; 0 = none; at most one a usable line)",
        whole_number(0, kAnyCount));
  o.add("shard-by", score.shard_by, "hash: of pair_id with --seed; file: input file index mod K (/shards then has a column file: the "
        "shard's files, the src files of --src-file/--tgt-file); block: contiguous blocks of lines",
        one_of({"hash", "file", "block"}));
  o.add("seed", c.seed, "Seed of --shard-by hash and of --sample", whole_number(0, kAnyCount));
  score.sample.add_to(o, c.sample, "subset (the corpus, every shard, label row and length bucket)");
  add_label_options(o, c.labels);
  o.add_switch("by-label", c.by_label,
               "Also score every label combination present and, with several labels, every value of each (/labels: "
               "label 'formal|aroused' or 'formal|*', n_pairs, tdcone, cond_entropy; KL and TD-CONE_REL with "
               "--reference); needs --label-cols or --label-fields");
  o.add("length-buckets", c.length_buckets,
        "Also score buckets of input lengths (/lengths): each bound is a bucket's largest input length in tokens, "
        "increasing (5,10,20,40: 0-5, 6-10, 11-20, 21-40 and an overflow bucket above 40); pairs, TD-CONE, BLEU and "
        "unigram precision per bucket",
        whole_number(0, std::numeric_limits<std::uint32_t>::max()))
      ->delimiter(',');
  score.output.add_to(o, c.output);
}

int run_score(const boost::mpi::communicator& comm, const ScoreOptions& options, const std::string& config_toml) {
  const Stopwatch clock;
  jobs::ScoreConfig config = options.config;
  options.corpus.resolve(config.corpus);
  options.engine.resolve(comm, config.engine);
  options.output.resolve(config.output);
  options.sample.resolve(comm, config.sample);
  config.sample.seed = config.seed;
  config.corpus.dedup = dedup_mode(options.dedup);
  config.shard_by = from_name<entropy::ShardBy>(
      options.shard_by, {{"hash", entropy::ShardBy::hash}, {"file", entropy::ShardBy::file}, {"block", entropy::ShardBy::block}});
  const jobs::ScoreRun run = jobs::run_score_job(comm, config, config_toml);
  print_summary(comm, "score", config.output.output, run.counts, run.scores, run.with_reference, clock.seconds());
  if (comm.rank() == 0 && run.duplicates) print_duplicates(*run.duplicates);
  if (comm.rank() == 0) {
    if (run.replicates.ran()) print_comparison(run, "corpus", 0, {"corpus"}, "corpus");
    print_curve(run.curve);
    if (run.shards > 0) {
      const std::vector<std::string> names = run.shard_files.empty() ? numbered("shard", run.shards) : run.shard_files;
      // The table first, then what may be concluded from it.
      std::vector<std::uint64_t> sizes;
      for (std::size_t k = 1; k <= run.shards; ++k) sizes.push_back(run.scores.subsets[k].n_pairs);
      print_shards(run.scores, run.shards, run.with_reference, run.shard_files,
                   !run.replicates.ran() && sizes_comparable(sizes));
      print_comparison(run, "shards", 1, names, "shards");
    }
    if (run.by_label) {
      print_label_table(run.labels.names, run.scores.subsets, run.first_label, run.with_reference);
      print_comparison(run, "labels", run.first_label, run.labels.names, "label rows");
    }
    if (!config.length_buckets.empty()) {
      print_length_table(config.length_buckets, run.scores.subsets, run.first_length, run.with_reference);
      std::vector<std::string> names;
      for (std::size_t k = 0; k <= config.length_buckets.size(); ++k)
        names.push_back(length_bucket_name(config.length_buckets, k));
      print_comparison(run, "lengths", run.first_length, names, "length buckets");
    }
  }
  return results::finish_standard_output(comm);
}

}  // namespace tdcone::cli
