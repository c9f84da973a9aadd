// Property: the score pipeline gives the same answer on N ranks as on one
// (integers and orders identical, floats to 1e-12), whatever the input layout;
// and on one rank the same as a naive reference (naive_tdcone.hpp), to 1e-9.
#include <gtest/gtest.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/vector.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "naive_tdcone.hpp"
#include "results.hpp"
#include "shared_dir.hpp"
#include "tdcone/jobs/corpus_job.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/synth/synth.hpp"

namespace tdcone {
namespace {

namespace fs = std::filesystem;
namespace bmpi = boost::mpi;

struct Result {
  std::uint64_t lines = 0, bad = 0, vx = 0;
  std::vector<entropy::SubsetScore> subsets;
  std::vector<double> pair_tdcone;  // all pairs, on rank 0
  std::vector<std::uint64_t> ranks;
  std::vector<std::uint64_t> masks;  // sweep masks, on rank 0
  std::vector<std::uint32_t> groups; // group of every pair, on rank 0
  // On one rank: every pair's word types (local ids), and whether it was scored.
  std::vector<test_support::NaivePair> types;
  std::vector<bool> scored;
};

using test_support::expect_same_scores;
using test_support::gather_in_order;

/// Which subsets to score besides the corpus.
struct Subsets {
  std::size_t shards = 0;
  entropy::ShardBy shard_by = entropy::ShardBy::hash;
  std::vector<double> thresholds;
  std::uint64_t sample = 0;
};

/// The stages of `tdcone score` / `tdcone sweep`, without the HDF5 file.
Result score(const bmpi::communicator& comm, const config::CorpusConfig& corpus, const Subsets& subsets = {},
             const config::ReferenceConfig& reference = {}, const config::EngineSettings& engine = {}) {
  config::OutputConfig output;
  output.output = (fs::temp_directory_path() / "tdcone-never-written.h5").string();
  jobs::CorpusJob job = jobs::read_corpus_job(comm, corpus, reference, output);
  Result r;
  entropy::PairGroups groups = entropy::corpus_groups(job.share);
  if (subsets.shards > 0)
    groups = entropy::shard_groups(job.share, entropy::assign_shards(job.share, subsets.shards, subsets.shard_by, 9),
                                   subsets.shards);
  if (!subsets.thresholds.empty()) {
    auto t = entropy::threshold_groups(comm, job.share, subsets.thresholds, subsets.sample, 5);
    groups = t.groups;
    r.masks = gather_in_order(comm, t.mask_of_pair);
  }
  if (comm.size() == 1)  // before scoring: the engine releases the types it aligns
    for (std::size_t i = 0; i < job.share.size(); ++i) {
      const auto src = job.share.src_types(i), tgt = job.share.tgt_types(i);
      r.types.push_back({{src.begin(), src.end()}, {tgt.begin(), tgt.end()}});
      r.scored.push_back(!(job.share.flags[i] & schema::bad_line));
    }
  const jobs::JobScores scores = jobs::score_corpus_job(comm, job, engine, reference, groups);
  r.subsets = scores.subsets;
  r.vx = scores.input_types;
  r.lines = job.share.total_lines;
  r.bad = job.counts.flagged;
  r.groups = gather_in_order(comm, groups.group_of_pair);
  r.pair_tdcone = gather_in_order(comm, scores.pair_tdcone);
  r.ranks = gather_in_order(comm, scores.pair_rank);
  return r;
}

// The engine on one rank against the naive reference (a map of maps): the
// corpus's TD-CONE and every scored pair's, to 1e-9.
void expect_naive_scores(const Result& single) {
  std::vector<test_support::NaivePair> scored;
  for (std::size_t i = 0; i < single.types.size(); ++i) {
    if (!single.scored[i]) {
      EXPECT_TRUE(std::isnan(single.pair_tdcone[i])) << "bad pair " << i;
      continue;
    }
    scored.push_back(single.types[i]);
    ASSERT_NEAR(single.pair_tdcone[i], test_support::naive_tdcone({single.types[i]}), 1e-9) << "pair " << i;
  }
  ASSERT_FALSE(scored.empty());
  EXPECT_NEAR(single.subsets[0].tdcone, test_support::naive_tdcone(scored), 1e-9);
}

// Runs on all ranks (with `engine`) and on rank 0 alone (default engine
// options), and compares on rank 0: every value has the same bits, and the
// one-rank values agree with the naive reference.
void expect_rank_count_invariant(const config::CorpusConfig& corpus, std::uint64_t expected_lines,
                                 const Subsets& subsets = {}, const config::ReferenceConfig& reference = {},
                                 const config::EngineSettings& engine = {}) {
  bmpi::communicator world;
  const Result distributed = score(world, corpus, subsets, reference, engine);
  if (world.rank() != 0) return;
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const Result single = score(self, corpus, subsets, reference);
  expect_naive_scores(single);  // on one rank, compared with something other than itself
  EXPECT_EQ(single.lines, expected_lines);
  EXPECT_EQ(distributed.lines, single.lines);
  EXPECT_EQ(distributed.bad, single.bad);
  EXPECT_EQ(distributed.vx, single.vx);
  ASSERT_EQ(distributed.subsets.size(), single.subsets.size());
  for (std::size_t s = 0; s < single.subsets.size(); ++s)
    expect_same_scores(distributed.subsets[s], single.subsets[s], "subset " + std::to_string(s), 0);
  ASSERT_EQ(distributed.pair_tdcone.size(), expected_lines);
  for (std::size_t i = 0; i < expected_lines; ++i) {
    if (std::isnan(single.pair_tdcone[i])) {
      EXPECT_TRUE(std::isnan(distributed.pair_tdcone[i])) << "pair " << i;
    } else {
      ASSERT_EQ(distributed.pair_tdcone[i], single.pair_tdcone[i]) << "pair " << i;
    }
  }
  EXPECT_EQ(distributed.ranks, single.ranks);
  EXPECT_EQ(distributed.masks, single.masks);
  std::vector<std::uint64_t> sorted = single.ranks;  // ranks are a permutation of 1..N
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], i + 1);
}

class ScorePipelineTest : public ::testing::Test {
 public:
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
  static config::CorpusConfig tsv(std::vector<std::string> inputs) {
    config::CorpusConfig o;
    o.inputs = std::move(inputs);
    o.score_col = 3;
    o.id_col = 4;
    return o;
  }
  test_support::SharedTempDir scratch_{"pipeline_test"};
  const fs::path& dir_ = scratch_.path();
};

TEST_F(ScorePipelineTest, PlainTsv) {
  expect_rank_count_invariant(tsv({synth("plain.tsv", 5000, false)}), 5000);
}

TEST_F(ScorePipelineTest, MultiFrameZstd) {
  // ~11 MB of text: several 1 MiB frames, so ranks split the file.
  expect_rank_count_invariant(tsv({synth("big.tsv.zst", 60000, true)}), 60000);
}

TEST_F(ScorePipelineTest, RoundSizeAndBudgetChangeRoundsNotResults) {
  // 64 KiB rounds: hundreds of them; the automatic size: about eight.
  config::EngineSettings small;
  small.memory_bytes = 96 << 20;
  small.round_bytes = 64 << 10;
  expect_rank_count_invariant(tsv({synth("rounds.tsv", 60000, false)}), 60000, {}, {}, small);
}

TEST_F(ScorePipelineTest, TooSmallMemoryStopsEveryRankWithStatus2) {
  config::EngineSettings tiny;
  tiny.memory_bytes = 3 << 20;
  bmpi::communicator world;
  try {
    score(world, tsv({synth("too-big.tsv", 60000, false)}), {}, {}, tiny);
    FAIL() << "expected the memory budget to be refused";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2);
    EXPECT_NE(std::string(e.what()).find("--memory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("try --memory "), std::string::npos) << e.what();
  }
}

// The engine gives back the types it aligns: a second run on the same job is
// refused on every rank alike (also one that holds no pair), never a hang.
TEST_F(ScorePipelineTest, AJobIsScoredOnceOnEveryRank) {
  bmpi::communicator world;
  const auto path = (dir_ / "three.tsv").string();
  if (world.rank() == 0) std::ofstream(path) << "a b\tb c\t0.1\tx\nc d\td e\t0.2\ty\ne f\tf g\t0.3\tz\n";
  world.barrier();
  config::OutputConfig output;
  output.output = (dir_ / "never-written.h5").string();
  jobs::CorpusJob job = jobs::read_corpus_job(world, tsv({path}), {}, output);
  const entropy::PairGroups groups = entropy::corpus_groups(job.share);
  EXPECT_EQ(jobs::score_corpus_job(world, job, {}, {}, groups).subsets[0].n_pairs, 3u);
  EXPECT_THROW(jobs::score_corpus_job(world, job, {}, {}, groups), std::logic_error);
}

TEST_F(ScorePipelineTest, SeveralFilesAndGlobs) {
  const auto a = synth("part-a.tsv", 1500, false);
  const auto b = synth("part-b.tsv.zst", 2500, true);
  bmpi::communicator world;
  if (world.rank() == 0) std::ofstream(dir_ / "part-c-empty.tsv");
  world.barrier();
  expect_rank_count_invariant(tsv({(dir_ / "part-*.tsv").string(), b}), 4000);  // a, empty c, then b
  expect_rank_count_invariant(tsv({a, (dir_ / "part-c-empty.tsv").string(), b}), 4000);
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
  config::CorpusConfig o;
  o.inputs = {jsonl};
  o.format = io::Format::jsonl;
  expect_rank_count_invariant(o, 3000);
}

class SubsetTest : public ScorePipelineTest {
 public:
  void SetUp() override {
    ScorePipelineTest::SetUp();
    corpus_ = synth("corpus.tsv", 12000, false);
    bmpi::communicator world;
    if (world.rank() == 0) {  // a reference from another seed: other pairs, mostly the same words
      synth::SynthOptions o;
      o.pairs = 400;
      o.seed = 99;
      o.vocabulary = 3000;
      o.junk_fraction = 0;
      synth::write_corpus(o, (dir_ / "reference.tsv").string());
    }
    world.barrier();
    reference_.reference = (dir_ / "reference.tsv").string();
  }

  // Rank 0 writes the corpus lines i with keep(i) to `name`; everyone waits.
  std::string write_subset(const std::string& name, const std::function<bool(std::size_t)>& keep) {
    bmpi::communicator world;
    const auto path = (dir_ / name).string();
    if (world.rank() == 0) {
      std::ifstream in(corpus_);
      std::ofstream out(path);
      std::size_t i = 0;
      for (std::string line; std::getline(in, line); ++i)
        if (keep(i)) out << line << "\n";
    }
    world.barrier();
    return path;
  }

  // The score column of every line (NaN when it is not a number), on rank 0.
  std::vector<double> scores_of_lines() const {
    std::vector<double> scores;
    std::ifstream in(corpus_);
    for (std::string line; std::getline(in, line);) {
      std::vector<std::string> f;
      std::size_t at = 0;
      for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1) f.push_back(line.substr(at, tab - at));
      f.push_back(line.substr(at));
      char* end = nullptr;
      const double v = f.size() > 2 ? std::strtod(f[2].c_str(), &end) : 0;
      scores.push_back(f.size() > 2 && end && *end == 0 && !f[2].empty() ? v : std::nan(""));
    }
    return scores;
  }

  std::string corpus_;
  config::ReferenceConfig reference_;
};

TEST_F(SubsetTest, ReferenceShardsAndSweepsAreRankCountInvariant) {
  Subsets shards;
  shards.shards = 3;
  expect_rank_count_invariant(tsv({corpus_}), 12000, shards, reference_);
  Subsets sweep;
  sweep.thresholds = {0.3, 0.5, 0.7};
  expect_rank_count_invariant(tsv({corpus_}), 12000, sweep, reference_);
  sweep.sample = 700;
  expect_rank_count_invariant(tsv({corpus_}), 12000, sweep, reference_);
}

// Each sweep row equals a separate score of the corpus filtered to that subset.
void expect_sweep_rows_equal_filtered_runs(SubsetTest& test, std::uint64_t sample) {
  bmpi::communicator world;
  Subsets sweep;
  sweep.thresholds = {0.7, 0.4, 0.55};  // any order
  sweep.sample = sample;
  const Result swept = score(world, test.tsv({test.corpus_}), sweep, test.reference_);
  std::vector<std::uint64_t> masks = swept.masks;
  bmpi::broadcast(world, masks, 0);
  std::vector<double> line_scores;
  if (world.rank() == 0) line_scores = test.scores_of_lines();
  for (std::size_t t = 0; t < sweep.thresholds.size(); ++t) {
    if (world.rank() == 0) {
      std::uint64_t members = 0, eligible = 0;
      for (std::size_t i = 0; i < masks.size(); ++i) {
        const bool in = masks[i] >> t & 1u, above = line_scores[i] >= sweep.thresholds[t];
        members += in;
        eligible += above;
        if (sample == 0) {
          EXPECT_EQ(in, above) << "line " << i;
        }
        if (in) {
          EXPECT_TRUE(above) << "sampled line " << i << " is below the threshold";
        }
      }
      EXPECT_EQ(members, sample == 0 ? eligible : std::min(sample, eligible));
    }
    const auto file = test.write_subset("sweep-" + std::to_string(t) + ".tsv",
                                        [&](std::size_t i) { return (masks[i] >> t & 1u) != 0; });
    const Result alone = score(world, test.tsv({file}), {}, test.reference_);
    if (world.rank() == 0) expect_same_scores(swept.subsets[1 + t], alone.subsets[0], "threshold " + std::to_string(t));
  }
}

TEST_F(SubsetTest, SweepRowsEqualScoresOfFilteredCorpora) { expect_sweep_rows_equal_filtered_runs(*this, 0); }

TEST_F(SubsetTest, SampledSweepRowsEqualScoresOfTheSamples) { expect_sweep_rows_equal_filtered_runs(*this, 900); }

TEST_F(SubsetTest, ShardRowsEqualScoresOfShardFiles) {
  bmpi::communicator world;
  for (auto by : {entropy::ShardBy::hash, entropy::ShardBy::block}) {
    Subsets shards;
    shards.shards = 4;
    shards.shard_by = by;
    const Result sharded = score(world, tsv({corpus_}), shards, reference_);
    std::vector<std::uint32_t> groups = sharded.groups;
    bmpi::broadcast(world, groups, 0);
    for (std::uint32_t k = 0; k < 4; ++k) {
      const auto file = write_subset("shard-" + std::to_string(k) + ".tsv", [&](std::size_t i) { return groups[i] == k; });
      const Result alone = score(world, tsv({file}), {}, reference_);
      if (world.rank() == 0) expect_same_scores(sharded.subsets[1 + k], alone.subsets[0], "shard " + std::to_string(k));
    }
    if (world.rank() == 0 && by == entropy::ShardBy::block)
      for (std::size_t i = 0; i < groups.size(); ++i)
        if (groups[i] != entropy::kNoGroup) {
          ASSERT_EQ(groups[i], i * 4 / groups.size());
        }
  }
}

}  // namespace
}  // namespace tdcone
