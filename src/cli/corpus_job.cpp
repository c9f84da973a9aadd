#include "tdcone/cli/corpus_job.hpp"

#include <cstdio>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/cli/progress.hpp"
#include "tdcone/entropy/share_scoring.hpp"
#include "tdcone/mpi/global_rank.hpp"
#include "tdcone/mpi/guard.hpp"

namespace tdcone::cli {

text::TokenizedShare read_files(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& files,
                                const text::ReadOptions& options, text::Vocabulary& vocabulary, const std::string& what) {
  Progress progress(comm.rank() == 0, "read " + what, "lines on rank 0");
  text::TokenizedShare share;
  mpi::collective_step(comm, [&] {
    share = text::read_share(comm, files, options, vocabulary,
                             [&](std::uint64_t lines, double fraction) { progress.update(lines, fraction); });
  });
  progress.finish(share.size());
  return share;
}

CorpusJob read_corpus_job(const boost::mpi::communicator& comm, const CorpusOptions& corpus,
                          const ReferenceOptions& reference, const OutputOptions& output) {
  CorpusJob job;
  std::vector<io::InputFile> reference_files;
  mpi::collective_step(comm, [&] {
    h5::check_output_target(output.output, output.force);
    job.files = io::resolve_inputs(corpus.inputs);
    if (!reference.reference.empty()) reference_files = io::resolve_inputs({reference.reference});
  });
  job.share = read_files(comm, job.files, corpus.read_options(), job.vocabulary, "corpus");
  job.counts = account_lines(comm, job.share, corpus.on_bad_line);
  if (!reference_files.empty()) {
    job.reference = read_files(comm, reference_files, corpus.read_options(), job.vocabulary, "reference");
    account_lines(comm, *job.reference, corpus.on_bad_line);
  }
  return job;
}

JobScores score_corpus_job(const boost::mpi::communicator& comm, const CorpusJob& job, const AlignOptions& align,
                           const ReferenceOptions& reference, const entropy::PairGroups& groups) {
  align::EmbeddingTable embeddings;
  if (!align.embeddings.empty())
    mpi::collective_step(comm, [&] { embeddings = align::EmbeddingTable::load(align.embeddings, job.vocabulary); });
  const bool by_embedding = align.align == "static";
  if (by_embedding && align.embeddings.empty() && comm.rank() == 0)
    std::fprintf(stderr, "tdcone: --align static without --embeddings: uniform over y\\x (SPEC §3)\n");
  align::PairAligner aligner(by_embedding ? align::AlignMode::embedding : align::AlignMode::uniform,
                             by_embedding && !align.embeddings.empty() ? &embeddings : nullptr);

  JobScores scores;
  mpi::WordMarks marks(job.vocabulary.size(), groups.group_count());
  auto corpus = entropy::align_share(job.share, aligner, groups.group_of_pair, groups.group_count());
  entropy::mark_words(job.share, marks, mpi::WordMarks::corpus_input, mpi::WordMarks::corpus_output, groups.group_of_pair);
  scores.pair_tdcone = std::move(corpus.pair_tdcone);
  std::optional<entropy::ShareAlignment> ref;
  if (job.reference) {
    ref = entropy::align_share(*job.reference, aligner);
    entropy::mark_words(*job.reference, marks, mpi::WordMarks::reference_input, mpi::WordMarks::reference_output);
  }

  const auto vocabulary = mpi::build_global_vocabulary(comm, job.vocabulary, marks);
  const auto q = mpi::PartitionedMatrix::reduce(comm, corpus.groups, vocabulary);
  corpus.groups.clear();
  std::optional<mpi::PartitionedMatrix> p;
  if (ref) p = mpi::PartitionedMatrix::reduce(comm, ref->groups, vocabulary);
  scores.subsets = entropy::score_subsets(comm, q, groups, vocabulary, p ? &*p : nullptr, reference.rel_lambda);
  scores.input_types = vocabulary.count(comm, mpi::WordMarks::corpus_input);
  scores.pair_rank = mpi::global_ranks(comm, scores.pair_tdcone, job.share.first_pair_id);
  return scores;
}

void write_corpus_group(h5::OutputFile& file, const JobScores& scores, bool with_reference) {
  const entropy::SubsetScore& corpus = scores.subsets[0];
  file.create_group("/corpus");
  file.set_attribute("/corpus", "tdcone", corpus.tdcone);
  file.set_attribute("/corpus", "cond_entropy", corpus.cond_entropy);
  file.set_attribute("/corpus", "n_pairs", corpus.n_pairs);
  file.set_attribute("/corpus", "vx", scores.input_types);
  file.set_attribute("/corpus", "vy", corpus.output_types);
  file.set_attribute("/corpus", "nnz", corpus.nnz);
  if (with_reference) {
    file.set_attribute("/corpus", "tdcone_rel", corpus.tdcone_rel);
    file.set_attribute("/corpus", "kl_pq", corpus.kl_pq);
    file.set_attribute("/corpus", "kl_pu", corpus.kl_pu);
  }
}

void print_summary(const boost::mpi::communicator& comm, const std::string& command, const std::string& output,
                   const LineCounts& counts, const JobScores& scores, bool with_reference, double seconds) {
  if (comm.rank() != 0) return;
  const entropy::SubsetScore& corpus = scores.subsets[0];
  std::printf("tdcone %s: %s\n", command.c_str(), output.c_str());
  std::printf("  lines        %llu (scored %llu, flagged %llu)\n", (unsigned long long)counts.lines,
              (unsigned long long)counts.scored, (unsigned long long)counts.flagged);
  std::printf("  |V_x|        %llu\n  |V_y|        %llu\n  nnz(M)       %llu\n", (unsigned long long)scores.input_types,
              (unsigned long long)corpus.output_types, (unsigned long long)corpus.nnz);
  std::printf("  H(Y|X)       %.7f nats\n  TD-CONE      %.7f\n", corpus.cond_entropy, corpus.tdcone);
  if (with_reference)
    std::printf("  TD-CONE_REL  %.7f (KL_pq %.7f, KL_pu %.7f)\n", corpus.tdcone_rel, corpus.kl_pq, corpus.kl_pu);
  std::printf("  ranks        %d, %.2f s\n", comm.size(), seconds);
}

}  // namespace tdcone::cli
