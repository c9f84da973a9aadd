// The files each command reads and writes (cli/input_guard.hpp), by option,
// and the refusal, on every rank, of an output that is one of its inputs.
#include "tdcone/cli/input_guard.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <utility>
#include <vector>

#include "tdcone/mpi/guard.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Strings = std::vector<std::string>;
using Outputs = std::vector<std::pair<std::string, std::string>>;

// What each input list is, in order.
Strings whats(const CommandFiles& files) {
  Strings out;
  for (const io::ReadFiles& f : files.inputs) out.push_back(f.what);
  return out;
}
// The patterns of the input list `what` (a failure when there is none).
Strings patterns_of(const CommandFiles& files, const std::string& what) {
  for (const io::ReadFiles& f : files.inputs)
    if (f.what == what) return f.patterns;
  ADD_FAILURE() << "no input '" << what << "'";
  return {};
}

template <class Config>
void give_scored_corpus_files(Config& c) {
  c.corpus.inputs = {"a.tsv", "b*.tsv"};
  c.corpus.src_files = {"c.de"};
  c.corpus.tgt_files = {"c.en"};
  c.reference.reference = "ref.tsv";
  c.reference.src_files = {"r.de"};
  c.reference.tgt_files = {"r.en"};
  c.engine.embeddings = "vectors.txt";
  c.output.output = "out.h5";
}

const Strings kScoredCorpusInputs = {"the corpus given with --input",
                                     "the corpus given with --src-file",
                                     "the corpus given with --tgt-file",
                                     "the reference given with --reference",
                                     "the reference given with --reference-src-file",
                                     "the reference given with --reference-tgt-file",
                                     "the embeddings given with --embeddings"};

TEST(FilesOf, ScoreReadsItsCorpusReferenceAndEmbeddings) {
  ScoreOptions score;
  give_scored_corpus_files(score.config);
  const CommandFiles files = files_of(score);
  EXPECT_EQ(whats(files), kScoredCorpusInputs);
  EXPECT_EQ(patterns_of(files, "the corpus given with --input"), (Strings{"a.tsv", "b*.tsv"}));
  EXPECT_EQ(patterns_of(files, "the corpus given with --src-file"), Strings{"c.de"});
  EXPECT_EQ(patterns_of(files, "the corpus given with --tgt-file"), Strings{"c.en"});
  EXPECT_EQ(patterns_of(files, "the reference given with --reference"), Strings{"ref.tsv"});
  EXPECT_EQ(patterns_of(files, "the reference given with --reference-src-file"), Strings{"r.de"});
  EXPECT_EQ(patterns_of(files, "the reference given with --reference-tgt-file"), Strings{"r.en"});
  EXPECT_EQ(patterns_of(files, "the embeddings given with --embeddings"), Strings{"vectors.txt"});
  EXPECT_EQ(files.outputs, (Outputs{{"--output", "out.h5"}}));
}

TEST(FilesOf, SweepReadsWhatScoreReads) {
  SweepOptions sweep;
  give_scored_corpus_files(sweep.config);
  const CommandFiles files = files_of(sweep);
  EXPECT_EQ(whats(files), kScoredCorpusInputs);
  EXPECT_EQ(patterns_of(files, "the reference given with --reference"), Strings{"ref.tsv"});
  EXPECT_EQ(files.outputs, (Outputs{{"--output", "out.h5"}}));
}

TEST(FilesOf, BalanceReadsItsCorpusRankingWhereResultAndEmbeddings) {
  BalanceOptions balance;
  balance.config.corpus.inputs = {"labelled.tsv"};
  balance.config.ranking = "scores.h5";
  balance.config.where.where_result = "dedup.h5";
  balance.config.engine.embeddings = "vectors.txt";
  balance.config.output.output = "balanced.h5";
  const CommandFiles files = files_of(balance);
  EXPECT_EQ(whats(files), (Strings{"the corpus given with --input", "the corpus given with --src-file",
                                   "the corpus given with --tgt-file", "the ranking given with --ranking",
                                   "the result given with --where-result", "the embeddings given with --embeddings"}));
  EXPECT_EQ(patterns_of(files, "the corpus given with --input"), Strings{"labelled.tsv"});
  EXPECT_EQ(patterns_of(files, "the ranking given with --ranking"), Strings{"scores.h5"});
  EXPECT_EQ(patterns_of(files, "the result given with --where-result"), Strings{"dedup.h5"});
  EXPECT_EQ(files.outputs, (Outputs{{"--output", "balanced.h5"}}));
}

TEST(FilesOf, SelectWritesItsOutputAndACheckpointNamedAfterItByDefault) {
  SelectOptions select;
  select.config.representative = {"repr.txt"};
  select.config.available = {"avail1.txt", "avail2.txt"};
  select.config.unadapted = {"unad.txt"};
  select.config.seed_corpus = {"seed.txt"};
  select.config.where.where_result = "dedup.h5";
  select.config.output.output = "sel.h5";
  CommandFiles files = files_of(select);
  EXPECT_EQ(whats(files), (Strings{"REPR given with --representative", "AVAIL given with --available",
                                   "UNAD given with --unadapted", "SEED given with --seed-corpus",
                                   "the result given with --where-result"}));
  EXPECT_EQ(patterns_of(files, "AVAIL given with --available"), (Strings{"avail1.txt", "avail2.txt"}));
  EXPECT_EQ(patterns_of(files, "SEED given with --seed-corpus"), Strings{"seed.txt"});
  EXPECT_EQ(files.outputs, (Outputs{{"--output", "sel.h5"}, {"--checkpoint", "sel.h5.ckpt"}}));

  select.config.checkpoint = "/scratch/sel.ckpt";
  files = files_of(select);
  EXPECT_EQ(files.outputs, (Outputs{{"--output", "sel.h5"}, {"--checkpoint", "/scratch/sel.ckpt"}}));
}

TEST(FilesOf, ExportReadsTheResultAndTheTextItJoins) {
  ExportOptions e;
  e.config.hdf5 = "r.h5";
  e.config.inputs = {"moved.tsv"};
  e.config.output = "pairs.tsv";
  const CommandFiles files = files_of(e);
  EXPECT_EQ(whats(files), (Strings{"the result to export", "the text given with --input"}));
  EXPECT_EQ(patterns_of(files, "the result to export"), Strings{"r.h5"});
  EXPECT_EQ(patterns_of(files, "the text given with --input"), Strings{"moved.tsv"});
  EXPECT_EQ(files.outputs, (Outputs{{"--output", "pairs.tsv"}}));
}

class RefuseWritingOverInputs : public ::testing::Test {
 protected:
  // The CollectiveError of guarding `files` on one rank: its status and message ({0, ""} when it passes).
  std::pair<int, std::string> guard(const CommandFiles& files) {
    const boost::mpi::communicator self(MPI_COMM_SELF, boost::mpi::comm_attach);
    try {
      refuse_writing_over_inputs(self, files);
    } catch (const mpi::CollectiveError& e) {
      return {e.exit_status, e.what()};
    }
    return {0, ""};
  }

  test_support::TempDir dir_{"tdcone_cli_input_guard_test"};
};

TEST_F(RefuseWritingOverInputs, OutputsApartFromTheInputsPass) {
  SelectOptions select;
  select.config.available = {dir_.write("avail.txt", "a b\n")};
  select.config.output.output = dir_.path("sel.h5");
  EXPECT_EQ(guard(files_of(select)), (std::pair<int, std::string>{0, ""}));
}

TEST_F(RefuseWritingOverInputs, AnOutputOverAnInputStopsWithStatus2NamingBoth) {
  BalanceOptions balance;
  balance.config.corpus.inputs = {dir_.write("c.tsv", "a\tb\tx\n")};
  balance.config.ranking = dir_.write("scores.h5", "x");
  balance.config.output.output = balance.config.ranking;
  const auto [status, message] = guard(files_of(balance));
  EXPECT_EQ(status, 2);
  EXPECT_CONTAINS(message, "--output");
  EXPECT_CONTAINS(message, dir_.path("scores.h5"));
  EXPECT_CONTAINS(message, "the ranking given with --ranking");
}

TEST_F(RefuseWritingOverInputs, EveryOutputIsCheckedNotOnlyTheFirst) {
  SelectOptions select;
  select.config.available = {dir_.write("avail.txt", "a b\n")};
  select.config.output.output = dir_.path("sel.h5");
  select.config.checkpoint = select.config.available[0];  // the second output
  const auto [status, message] = guard(files_of(select));
  EXPECT_EQ(status, 2);
  EXPECT_CONTAINS(message, "--checkpoint");
  EXPECT_CONTAINS(message, "AVAIL given with --available");
}

}  // namespace
}  // namespace tdcone::cli
