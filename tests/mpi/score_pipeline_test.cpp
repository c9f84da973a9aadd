// Property: the score pipeline gives the same answer on N ranks as on one
// (integers and orders identical, floats to 1e-12), whatever the input layout.
#include <gtest/gtest.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/vector.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "tdcone/align/pair_alignment.hpp"
#include "tdcone/entropy/share_scoring.hpp"
#include "tdcone/mpi/global_rank.hpp"
#include "tdcone/mpi/partitioned_matrix.hpp"
#include "tdcone/synth/synth.hpp"

namespace tdcone {
namespace {

namespace fs = std::filesystem;
namespace bmpi = boost::mpi;

struct Result {
  std::uint64_t lines = 0, bad = 0, vx = 0, vy = 0, nnz = 0;
  double cond_entropy = 0, tdcone = 0;
  std::vector<double> pair_tdcone;  // all pairs, on rank 0
  std::vector<std::uint64_t> ranks;
};

template <class T>
std::vector<T> gather_in_order(const bmpi::communicator& comm, const std::vector<T>& mine) {
  std::vector<std::vector<T>> parts;
  bmpi::gather(comm, mine, parts, 0);
  std::vector<T> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

Result score(const bmpi::communicator& comm, const std::vector<std::string>& inputs, const text::ReadOptions& options) {
  const auto files = io::resolve_inputs(inputs);
  const auto share = text::read_share(comm, files, options);
  align::PairAligner aligner(align::AlignMode::uniform, nullptr);
  auto aligned = entropy::align_share(share, aligner);
  const auto vocabulary = mpi::build_global_vocabulary(comm, share.vocabulary, aligned.word_sides);
  const auto matrix = mpi::PartitionedMatrix::reduce(comm, aligned.matrix, vocabulary);
  Result r;
  r.vx = vocabulary.count(mpi::corpus_input);
  r.vy = vocabulary.count(mpi::corpus_output);
  const auto corpus = mpi::corpus_entropy(comm, matrix, r.vy);
  r.cond_entropy = corpus.cond_entropy;
  r.tdcone = corpus.tdcone;
  r.nnz = corpus.nnz;
  r.lines = share.total_lines;
  r.bad = bmpi::all_reduce(comm, share.bad_count, std::plus<>());
  r.pair_tdcone = gather_in_order(comm, aligned.pair_tdcone);
  r.ranks = gather_in_order(comm, mpi::global_ranks(comm, aligned.pair_tdcone, share.first_pair_id));
  return r;
}

// Runs on all ranks and on rank 0 alone, and compares on rank 0.
void expect_rank_count_invariant(const std::vector<std::string>& inputs, const text::ReadOptions& options,
                                 std::uint64_t expected_lines) {
  bmpi::communicator world;
  const Result distributed = score(world, inputs, options);
  if (world.rank() != 0) return;
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const Result single = score(self, inputs, options);
  EXPECT_EQ(single.lines, expected_lines);
  EXPECT_EQ(distributed.lines, single.lines);
  EXPECT_EQ(distributed.bad, single.bad);
  EXPECT_EQ(distributed.vx, single.vx);
  EXPECT_EQ(distributed.vy, single.vy);
  EXPECT_EQ(distributed.nnz, single.nnz);
  EXPECT_NEAR(distributed.cond_entropy, single.cond_entropy, 1e-12 * single.cond_entropy);
  EXPECT_NEAR(distributed.tdcone, single.tdcone, 1e-12 * single.tdcone);
  ASSERT_EQ(distributed.pair_tdcone.size(), expected_lines);
  for (std::size_t i = 0; i < expected_lines; ++i) {
    if (std::isnan(single.pair_tdcone[i])) {
      EXPECT_TRUE(std::isnan(distributed.pair_tdcone[i])) << "pair " << i;
    } else {
      ASSERT_EQ(distributed.pair_tdcone[i], single.pair_tdcone[i]) << "pair " << i;
    }
  }
  EXPECT_EQ(distributed.ranks, single.ranks);
  std::vector<std::uint64_t> sorted = single.ranks;  // ranks are a permutation of 1..N
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], i + 1);
}

class ScorePipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bmpi::communicator world;
    dir_ = fs::temp_directory_path() / "tdcone_pipeline_test";
    if (world.rank() == 0) {
      fs::remove_all(dir_);
      fs::create_directories(dir_);
    }
    world.barrier();
  }
  void TearDown() override {
    bmpi::communicator world;
    world.barrier();
    if (world.rank() == 0) fs::remove_all(dir_);
  }
  // Rank 0 writes, everyone waits.
  std::string synth(const std::string& name, std::uint64_t pairs, bool zstd) {
    bmpi::communicator world;
    const auto path = (dir_ / name).string();
    if (world.rank() == 0) {
      synth::SynthOptions o;
      o.pairs = pairs;
      o.seed = 7;
      o.vocabulary = 3000;
      o.junk_fraction = 0.02;
      o.zstd = zstd;
      synth::write_corpus(o, path);
    }
    world.barrier();
    return path;
  }
  text::ReadOptions tsv_options() const {
    text::ReadOptions o;
    o.fields.score_col = 3;
    o.fields.id_col = 4;
    return o;
  }
  fs::path dir_;
};

TEST_F(ScorePipelineTest, PlainTsv) {
  expect_rank_count_invariant({synth("plain.tsv", 5000, false)}, tsv_options(), 5000);
}

TEST_F(ScorePipelineTest, MultiFrameZstd) {
  // ~11 MB of text: several 1 MiB frames, so ranks split the file.
  expect_rank_count_invariant({synth("big.tsv.zst", 60000, true)}, tsv_options(), 60000);
}

TEST_F(ScorePipelineTest, SeveralFilesAndGlobs) {
  const auto a = synth("part-a.tsv", 1500, false);
  const auto b = synth("part-b.tsv.zst", 2500, true);
  bmpi::communicator world;
  if (world.rank() == 0) std::ofstream(dir_ / "part-c-empty.tsv");
  world.barrier();
  expect_rank_count_invariant({(dir_ / "part-*.tsv").string(), b}, tsv_options(), 4000);  // a, empty c, then b
  expect_rank_count_invariant({a, (dir_ / "part-c-empty.tsv").string(), b}, tsv_options(), 4000);
}

TEST_F(ScorePipelineTest, Jsonl) {
  const auto tsv = synth("source.tsv", 3000, false);
  bmpi::communicator world;
  const auto jsonl = (dir_ / "pairs.jsonl").string();
  if (world.rank() == 0) {
    std::ifstream in(tsv);
    std::ofstream out(jsonl);
    auto quoted = [](const std::string& s) {
      std::string q = "\"";
      for (char c : s) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
      return q + "\"";
    };
    for (std::string line; std::getline(in, line);) {
      std::vector<std::string> f;
      std::size_t at = 0;
      for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1) f.push_back(line.substr(at, tab - at));
      f.push_back(line.substr(at));
      if (f.size() < 2) {
        out << "{\"src\": " << quoted(f[0]) << "}\n";  // stays a bad line: no tgt
        continue;
      }
      out << "{\"src\": " << quoted(f[0]) << ", \"tgt\": " << quoted(f[1]) << "}\n";
    }
  }
  world.barrier();
  text::ReadOptions o;
  o.fields.format = io::Format::jsonl;
  expect_rank_count_invariant({jsonl}, o, 3000);
}

}  // namespace
}  // namespace tdcone
