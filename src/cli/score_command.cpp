// tdcone score: corpus and pair TD-CONE, optional TD-CONE_REL, shards and label subsets (SPEC §3-5, §8).
#include <cmath>
#include <cstdio>

#include "tdcone/cli/corpus_job.hpp"
#include "tdcone/cli/labels.hpp"
#include "tdcone/cli/standard_output.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/cli/tables.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/core/guard.hpp"

namespace tdcone::cli {

namespace {

entropy::ShardBy shard_by(const std::string& name) {
  if (name == "file") return entropy::ShardBy::file;
  if (name == "block") return entropy::ShardBy::block;
  return entropy::ShardBy::hash;
}

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

// The shard table, the lowest TD-CONE_REL marked: the shard that best covers the reference.
// An empty shard has no scores: NaN, printed "nan", never marked best. `files`:
// each shard's files (--shard-by file), else empty.
void print_shards(const JobScores& scores, std::size_t shards, bool with_reference, const std::vector<std::string>& files) {
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
  std::printf("%10s %10s%s\n", "n_pairs", "tdcone", with_reference ? "  tdcone_rel" : "");
  for (std::size_t k = 1; k <= shards; ++k) {
    const auto& s = scores.subsets[k];
    std::printf("  %-6zu ", k - 1);
    if (width >= 0) std::printf("%-*s ", width, files[k - 1].c_str());
    std::printf("%10llu %10.7f", (unsigned long long)s.n_pairs, s.tdcone);
    if (with_reference) std::printf("  %10.7f%s", s.tdcone_rel, k == best ? "  <- lowest TD-CONE_REL" : "");
    std::printf("\n");
  }
  if (empty > 0)
    std::printf("  warning: %zu of %zu shards %s empty (no usable line): TD-CONE%s NaN\n", empty, shards,
                empty == 1 ? "is" : "are", with_reference ? ", KL and TD-CONE_REL" : "");
}

}  // namespace

int run_score(const boost::mpi::communicator& comm, const ScoreOptions& options, const std::string& config_toml) {
  const Stopwatch clock;
  if (options.by_label != options.labels.given())
    mpi::fail_everywhere(options.by_label ? "--by-label needs --label-cols (TSV) or --label-fields (JSONL)"
                                          : "labels are read for --by-label: add it (or use tdcone balance)", 2);
  const CorpusJob job = read_corpus_job(comm, options.corpus, options.reference, options.output, &options.labels);
  // The counts are global, so every rank stops here together: a shard per line
  // at most, or a typo's billions of shards would take their memory first.
  if (options.shards > job.counts.scored)
    mpi::fail_everywhere(cat("--shards: ", options.shards, " is more than the ", job.counts.scored,
                             " usable lines of the corpus (at most one shard a line)"), 2);
  std::size_t shards = options.shards;
  if (options.shard_by == "file" && shards == 0) shards = job.files.size();
  std::vector<std::uint32_t> shard_of_pair;
  entropy::PairGroups groups;
  mpi::collective_step(comm, [&] {
    if (shards == 0) {
      groups = entropy::corpus_groups(job.share);
      return;
    }
    shard_of_pair = entropy::assign_shards(job.share, shards, shard_by(options.shard_by), options.seed);
    groups = entropy::shard_groups(job.share, shard_of_pair, shards);
  });
  // Label subsets follow the shards': subset 1 + shards + j is /labels row j.
  LabelSubsets labels;
  if (job.labels) {
    labels = label_subsets(job.share, *job.labels);
    groups = shards == 0 ? labels.groups : entropy::combine_groups(comm, groups, labels.groups);
  }
  const std::size_t first_label = 1 + shards;
  JobScores scores = score_corpus_job(comm, job, options.engine, options.reference, groups);
  const bool with_reference = job.reference.has_value();

  const Stopwatch write_clock;
  mpi::collective_step(comm, [&] {
    h5::OutputFile file(options.output.output, options.output.force, comm, options.output.compression_kind());
    write_run_attributes(comm, file, "score", config_toml, job.recorded_files(), job.share, job.counts);
    write_corpus_group(file, scores, with_reference);
    write_pairs(comm, file, job.share, options.corpus.read_options().fields, scores.pair_tdcone, scores.pair_rank);
    if (shards > 0) {
      file.write_column("/pairs/shard", std::span<const std::uint32_t>(shard_of_pair), job.share.first_pair_id,
                        job.share.total_lines);
      std::vector<std::uint64_t> shard_ids(shards), pairs(shards);
      for (std::size_t k = 0; k < shards; ++k) {
        shard_ids[k] = k;
        pairs[k] = scores.subsets[1 + k].n_pairs;
      }
      SubsetTable table(comm, file, "/shards");
      table.column("shard", shard_ids);
      if (options.shard_by == "file") table.column("file", shard_files(job.files, shards, recorded_path));
      table.column("n_pairs", pairs);
      table.scores(scores.subsets, 1, shards, with_reference);
    }
    if (job.labels) write_label_table(comm, file, labels.names, scores.subsets, first_label, with_reference);
    file.commit();
  });
  add_write_phase(scores, write_clock.seconds());
  print_summary(comm, "score", options.output.output, job.counts, scores, with_reference, clock.seconds());
  if (comm.rank() == 0 && shards > 0)
    print_shards(scores, shards, with_reference,
                 options.shard_by == "file"
                     ? shard_files(job.files, shards, [](const io::InputFile& f) { return f.path; })
                     : std::vector<std::string>());
  if (comm.rank() == 0 && job.labels) print_label_table(labels.names, scores.subsets, first_label, with_reference);
  return finish_standard_output(comm);
}

}  // namespace tdcone::cli
