// tdcone score: read -> tokenize -> align -> reduce -> rank -> write (SPEC §3, §8).
#include <cstdio>
#include <optional>

#include "tdcone/align/embeddings.hpp"
#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/progress.hpp"
#include "tdcone/cli/run_report.hpp"
#include "tdcone/entropy/share_scoring.hpp"
#include "tdcone/error.hpp"
#include "tdcone/mpi/global_rank.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/mpi/partitioned_matrix.hpp"

namespace tdcone::cli {

namespace {

text::TokenizedShare read_corpus(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& files,
                                 const CorpusOptions& corpus) {
  Progress progress(comm.rank() == 0, "read", "lines on rank 0");
  text::TokenizedShare share;
  mpi::collective_step(comm, [&] {
    share = text::read_share(comm, files, corpus.read_options(),
                             [&](std::uint64_t lines, double fraction) { progress.update(lines, fraction); });
  });
  progress.finish(share.size());
  return share;
}

}  // namespace

int run_score(const boost::mpi::communicator& comm, const ScoreOptions& options, const std::string& config_toml) {
  Progress total(comm.rank() == 0, "score", "pairs");
  if (options.align == "static" && options.embeddings.empty() && comm.rank() == 0)
    std::fprintf(stderr, "tdcone: --align static without --embeddings: uniform over y\\x (SPEC §3)\n");

  std::vector<io::InputFile> files;
  mpi::collective_step(comm, [&] {
    h5::check_output_target(options.output.output, options.output.force);
    files = io::resolve_inputs(options.corpus.inputs);
  });
  const text::TokenizedShare share = read_corpus(comm, files, options.corpus);
  const LineCounts counts = account_lines(comm, share, options.corpus.on_bad_line);

  align::EmbeddingTable embeddings;
  if (!options.embeddings.empty())
    mpi::collective_step(comm, [&] { embeddings = align::EmbeddingTable::load(options.embeddings, share.vocabulary); });
  const bool by_embedding = options.align == "static";
  align::PairAligner aligner(by_embedding ? align::AlignMode::embedding : align::AlignMode::uniform,
                             by_embedding && !options.embeddings.empty() ? &embeddings : nullptr);
  entropy::ShareAlignment aligned = entropy::align_share(share, aligner);

  const mpi::GlobalVocabulary vocabulary = mpi::build_global_vocabulary(comm, share.vocabulary, aligned.word_sides);
  const mpi::PartitionedMatrix matrix = mpi::PartitionedMatrix::reduce(comm, aligned.matrix, vocabulary);
  aligned.matrix.clear();
  const std::uint64_t vx = vocabulary.count(mpi::corpus_input), vy = vocabulary.count(mpi::corpus_output);
  const mpi::CorpusEntropy corpus = mpi::corpus_entropy(comm, matrix, vy);
  const std::vector<std::uint64_t> ranks = mpi::global_ranks(comm, aligned.pair_tdcone, share.first_pair_id);

  mpi::collective_step(comm, [&] {
    h5::OutputFile file(options.output.output, options.output.force, comm, options.output.compression_kind());
    write_run_attributes(comm, file, "score", config_toml, files, counts);
    file.create_group("/corpus");
    file.set_attribute("/corpus", "tdcone", corpus.tdcone);
    file.set_attribute("/corpus", "cond_entropy", corpus.cond_entropy);
    file.set_attribute("/corpus", "n_pairs", counts.scored);
    file.set_attribute("/corpus", "vx", vx);
    file.set_attribute("/corpus", "vy", vy);
    file.set_attribute("/corpus", "nnz", corpus.nnz);
    write_pairs(file, share, options.corpus.read_options().fields, aligned.pair_tdcone, ranks);
    file.commit();
  });

  if (comm.rank() == 0) {
    std::printf("tdcone score: %s\n", options.output.output.c_str());
    std::printf("  lines      %llu (scored %llu, flagged %llu)\n", (unsigned long long)counts.lines,
                (unsigned long long)counts.scored, (unsigned long long)counts.flagged);
    std::printf("  |V_x|      %llu\n  |V_y|      %llu\n  nnz(M)     %llu\n", (unsigned long long)vx,
                (unsigned long long)vy, (unsigned long long)corpus.nnz);
    std::printf("  H(Y|X)     %.7f nats\n  TD-CONE    %.7f\n", corpus.cond_entropy, corpus.tdcone);
    std::printf("  ranks      %d, %.2f s\n", comm.size(), total.elapsed_seconds());
  }
  return 0;
}

}  // namespace tdcone::cli
