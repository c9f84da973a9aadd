#include "tdcone/jobs/corpus_job.hpp"

#include <boost/mpi/collectives.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/entropy/subset_diversity.hpp"
#include "tdcone/io/parallel_files.hpp"
#include "tdcone/mpi/agreement.hpp"
#include "tdcone/engine/memory_budget.hpp"
#include "tdcone/engine/read_stage.hpp"

namespace tdcone::jobs {

namespace {

// Text grows its vocabulary with its length (Heaps' law: |V| ≈ K·N^β for N
// tokens, β ≈ 0.4-0.6, K ≈ 10-100): a thousand lines of text hold hundreds of
// word types at the least, always more than √lines. A column of a few values
// (a label, a score, a judgement like "(4,6)": 10 types over 10k lines) does
// not grow. Below a thousand lines neither is told apart.
constexpr std::uint64_t kFewTypesMinLines = 1000;

void name_sides(const config::CorpusConfig& corpus, CorpusJob& job) {
  using Names = std::array<std::string, 2>;
  using Options = std::array<Option, 2>;
  if (corpus.parallel()) {
    job.side_where = Names{"whole lines", "whole lines"};
    job.side_option = Options{Option::src_file, Option::tgt_file};
  } else if (corpus.format == io::Format::jsonl) {
    job.side_where = Names{cat("field '", corpus.src_field, "'"), cat("field '", corpus.tgt_field, "'")};
    job.side_option = Options{Option::src_field, Option::tgt_field};
  } else {
    job.side_where = Names{cat("column ", corpus.src_col), cat("column ", corpus.tgt_col)};
    job.side_option = Options{Option::src_col, Option::tgt_col};
  }
  if (corpus.reverse) {
    std::swap(job.side_where[0], job.side_where[1]);
    std::swap(job.side_option[0], job.side_option[1]);
  }
}

// Both sides read from the same text pair every line with itself.
void warn_same_sides(const CorpusJob& job) {
  std::string same;
  for (std::size_t i = 0; i < job.files.size() && i < job.tgt_files.size() && same.empty(); ++i) {
    std::error_code error;
    if (std::filesystem::equivalent(job.files[i].path, job.tgt_files[i].path, error))
      same = cat("name the same file ", job.files[i].path);
  }
  if (job.tgt_files.empty() && job.side_where[0] == job.side_where[1]) same = "are both " + job.side_where[0];
  if (!same.empty())
    std::fprintf(stderr, "tdcone: warning: %s and %s %s: every line is paired with itself (a TD-CONE near 0 that "
                 "means nothing); give the output side with %s\n", option_name(job.side_option[0]).c_str(),
                 option_name(job.side_option[1]).c_str(), same.c_str(), option_name(job.side_option[1]).c_str());
}

}  // namespace

CorpusJob read_corpus_job(const boost::mpi::communicator& comm, const config::CorpusConfig& corpus,
                          const config::ReferenceConfig& reference, const config::OutputConfig& output, const config::LabelConfig* labels) {
  const Stopwatch clock;
  CorpusJob job;
  std::vector<io::InputFile> reference_files, reference_tgt_files;
  text::ReadOptions read = corpus.read_options();
  read.diversity = true;  // the /pairs columns and the subsets' BLEU (not of the reference)
  mpi::collective_step(comm, [&] {
    output.check_target(comm.rank() == 0);
    corpus.check_sources();
    if (labels && labels->given() && corpus.parallel())
      throw UsageError(cat(Option::label_cols, "/", Option::label_fields, " do not apply to ", Option::src_file, "/",
                           Option::tgt_file, " (whole lines, no columns); paste them into one TSV with the labels"));
    if (labels) labels->apply(read);
    reference.check_sources();
  });
  job.files = corpus.parallel() ? mpi::agreed_inputs(comm, corpus.src_files, Option::src_file)
                                : mpi::agreed_inputs(comm, corpus.inputs, Option::input);
  if (corpus.parallel()) job.tgt_files = mpi::agreed_inputs(comm, corpus.tgt_files, Option::tgt_file);
  if (reference.parallel()) {
    reference_files = mpi::agreed_inputs(comm, reference.src_files, Option::reference_src_file);
    reference_tgt_files = mpi::agreed_inputs(comm, reference.tgt_files, Option::reference_tgt_file);
  } else if (!reference.reference.empty()) {
    reference_files = mpi::agreed_inputs(comm, {reference.reference}, Option::reference);
  }
  mpi::collective_step(comm, [&] {
    if (corpus.parallel()) io::check_parallel_files(job.files, job.tgt_files);
    if (reference.parallel()) io::check_parallel_files(reference_files, reference_tgt_files);
    name_sides(corpus, job);
    if (comm.rank() == 0) warn_same_sides(job);
  });
  job.share = corpus.parallel()
                  ? engine::read_parallel_files(comm, job.files, job.tgt_files, read, job.vocabulary, "corpus")
                  : engine::read_files(comm, job.files, read, job.vocabulary, "corpus");
  const std::string two_files = cat(Option::src_file, "/", Option::tgt_file);
  const std::string what = corpus.parallel() ? cat("the corpus, ", two_files) : cat("the corpus, ", Option::input);
  config::BadLinePolicy policy = corpus.bad_line_policy();
  if (!corpus.parallel()) policy.two_file_options = two_files;
  job.counts = results::account_lines(comm, job.share, job.files, policy, what);
  if (labels && labels->given())
    job.labels = results::account_labels(comm, job.share, read, job.counts, corpus.max_bad_fraction, results::describe_input(job.files, what));
  if (reference.parallel()) {
    job.reference = engine::read_parallel_files(comm, reference_files, reference_tgt_files, corpus.read_options(),
                                                  job.vocabulary, "reference");
    results::account_lines(comm, *job.reference, reference_files, corpus.bad_line_policy(),
                  cat("the reference, ", Option::reference_src_file, "/", Option::reference_tgt_file));
  } else if (!reference_files.empty()) {
    job.reference = engine::read_files(comm, reference_files, corpus.read_options(), job.vocabulary, "reference");
    policy.two_file_options = cat(Option::reference_src_file, "/", Option::reference_tgt_file);
    results::account_lines(comm, *job.reference, reference_files, policy, cat("the reference, ", Option::reference));
  }
  job.read_seconds = clock.seconds();
  if (read.dedup != text::DedupMode::none) {
    const Stopwatch dedup_clock;
    mpi::collective_step(comm, [&] {  // its collectives come before anything that throws
      job.duplicates = engine::Duplicates::find(comm, job.share, job.reference ? &*job.reference : nullptr);
    });
    job.dedup_seconds = dedup_clock.seconds();
  }
  return job;
}

engine::EngineConfig engine_config(const config::EngineSettings& engine, const config::ReferenceConfig& reference,
                                   const engine::MachineBudget& machine) {
  engine::EngineConfig config;
  config.align = engine.align;
  config.embeddings = engine.embeddings;
  config.rel_lambda = reference.rel_lambda;
  config.memory_bytes = engine.memory_bytes.value_or(machine.bytes);
  config.round_bytes = engine.round_bytes;
  config.machine_bytes = machine.bytes;
  return config;
}

JobScores score_corpus_job(const boost::mpi::communicator& comm, CorpusJob& job, const config::EngineSettings& engine,
                           const config::ReferenceConfig& reference, const entropy::PairGroups& groups,
                           std::span<const std::uint32_t> rank_groups, std::uint32_t rank_group_count) {
  const engine::MachineBudget machine = engine::default_memory_budget(comm);
  engine::EngineConfig config = engine_config(engine, reference, machine);
  config.rank_groups = rank_groups;
  config.rank_group_count = rank_group_count;
  engine::note_memory_budget(config.memory_bytes, machine);
  JobScores scores;
  static_cast<engine::EngineResult&>(scores) =
      engine::run_score_engine(comm, job.share, job.reference ? &*job.reference : nullptr, job.vocabulary, groups, config);
  const std::array<std::uint64_t, 2> types{scores.input_types, scores.subsets[0].output_types};
  for (std::size_t side = 0; side < 2; ++side)  // global counts: the same warning on any number of ranks
    if (comm.rank() == 0 && job.counts.scored >= kFewTypesMinLines &&
        static_cast<double>(types[side]) < std::sqrt(static_cast<double>(job.counts.scored)))
      std::fprintf(stderr, "tdcone: warning: the %s side (%s, %s) has %llu word types over %llu usable lines, too "
                   "few for text: a label or a score? check %s\n", side == 0 ? "input" : "output",
                   job.side_where[side].c_str(), option_name(job.side_option[side]).c_str(), (unsigned long long)types[side],
                   (unsigned long long)job.counts.scored, option_name(job.side_option[side]).c_str());
  entropy::add_subset_diversity(comm, job.share, groups, scores.subsets);
  if (job.duplicates) scores.phases.insert(scores.phases.begin(), {"dedup", job.dedup_seconds});
  scores.phases.insert(scores.phases.begin(), {"read", job.read_seconds});
  scores.memory_budget = config.memory_bytes;
  if (!engine.memory_bytes) scores.memory_rule = machine.rule;
  boost::mpi::all_gather(comm, engine::peak_rss_bytes(), scores.peak_rss);
  return scores;
}

void add_write_phase(JobScores& scores, double seconds) { scores.phases.push_back({"write", seconds}); }

void write_scored_corpus(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::string& command,
                         const std::string& config_toml, const CorpusJob& job, const config::CorpusConfig& corpus,
                         const JobScores& scores, bool with_reference) {
  results::write_run_attributes(comm, file, command, config_toml, job.recorded_files(), job.share, job.counts);
  write_corpus_group(file, scores, with_reference);
  results::write_pairs(comm, file, job.share, corpus.read_options().fields, scores.pair_tdcone, scores.pair_rank);
  if (job.duplicates) job.duplicates->write(file, job.share);
}

void write_corpus_group(hdf5::OutputFile& file, const JobScores& scores, bool with_reference) {
  const entropy::SubsetScore& corpus = scores.subsets[0];
  file.create_group(schema::corpus::group);
  results::set_attribute(file, schema::corpus::tdcone, corpus.tdcone);
  results::set_attribute(file, schema::corpus::cond_entropy, corpus.cond_entropy);
  results::set_attribute(file, schema::corpus::n_pairs, corpus.n_pairs);
  results::set_attribute(file, schema::corpus::vx, scores.input_types);
  results::set_attribute(file, schema::corpus::vy, corpus.output_types);
  results::set_attribute(file, schema::corpus::nnz, corpus.nnz);
  if (with_reference) {
    results::set_attribute(file, schema::corpus::tdcone_rel, corpus.tdcone_rel);
    results::set_attribute(file, schema::corpus::kl_pq, corpus.kl_pq);
    results::set_attribute(file, schema::corpus::kl_pu, corpus.kl_pu);
  }
  results::set_attribute(file, schema::corpus::bleu, corpus.diversity.bleu());
  results::set_attribute(file, schema::corpus::unigram_precision, corpus.diversity.unigram_precision());
  if (const auto& coverage = scores.embedding_coverage) {
    results::set_attribute(file, schema::corpus::vx_with_vector, coverage->input_types_with_vector);
    results::set_attribute(file, schema::corpus::vy_with_vector, coverage->output_types_with_vector);
    results::set_attribute(file, schema::corpus::spread_words, coverage->spread_words);
    results::set_attribute(file, schema::corpus::spread_by_vectors, coverage->spread_by_vectors);
    results::set_attribute(file, schema::corpus::vector_share_vx, coverage->input_share());
    results::set_attribute(file, schema::corpus::vector_share_vy, coverage->output_share());
    results::set_attribute(file, schema::corpus::vector_share_mass, coverage->mass_share());
  }
  // Run figures: seconds of each phase (rank 0's wall clock; the write phase is
  // not over yet), peak resident memory per rank so far, the budget.
  const schema::Attribute& seconds = schema::root::seconds;
  for (const auto& phase : scores.phases)
    file.set_attribute(seconds.object, seconds.name_with(phase.name), phase.seconds);
  std::string per_rank;
  std::uint64_t peak = 0;
  for (auto bytes : scores.peak_rss) {
    if (!per_rank.empty()) per_rank += ',';
    per_rank += std::to_string(bytes);
    peak = std::max(peak, bytes);
  }
  results::set_attribute(file, schema::root::peak_rss_bytes, peak);
  results::set_attribute(file, schema::root::peak_rss_bytes_per_rank, per_rank);
  results::set_attribute(file, schema::root::memory_budget_bytes, scores.memory_budget);
  results::set_attribute(file, schema::root::cell_updates, scores.cell_updates);
}

}  // namespace tdcone::jobs
