// Labels over ranks: ranks within groups (balance's order), the label space
// and counts agreed from values that only some ranks hold, and /labels
// subsets combined with shards, each the same as scored alone.
#include <gtest/gtest.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "results.hpp"
#include "shared_dir.hpp"
#include "tdcone/jobs/corpus_job.hpp"
#include "tdcone/results/label_subsets.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/mpi/global_rank.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/synth/synth.hpp"

namespace tdcone {
namespace {

namespace fs = std::filesystem;
namespace bmpi = boost::mpi;

using test_support::expect_same_scores;
using test_support::gather_in_order;

// ---- global_ranks_within ----

// This rank's [first, first + count) of `n` items shared unevenly (weights
// 5, 1, 0, 3, ...: on 3 ranks the last has none).
std::pair<std::size_t, std::size_t> uneven_share(std::size_t n, int rank, int ranks) {
  const std::size_t weights[] = {5, 1, 0, 3};
  std::size_t total = 0;
  for (int r = 0; r < ranks; ++r) total += weights[r % 4];
  std::size_t first = 0;
  for (int r = 0; r < rank; ++r) first += n * weights[r % 4] / total;
  const std::size_t count = rank == ranks - 1 ? n - first : n * weights[rank % 4] / total;
  return {first, count};
}

void expect_ranks_within_equal_reference(std::size_t n, std::uint32_t n_groups, std::uint64_t seed) {
  bmpi::communicator world;
  // Every rank makes all items the same way; keys with ties, -0.0 and NaN;
  // groups beyond n_groups (in no group), and group 3 empty.
  std::mt19937_64 rng(seed);
  std::vector<double> keys(n);
  std::vector<std::uint32_t> groups(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t kind = rng() % 100;
    keys[i] = kind < 8 ? std::nan("") : static_cast<double>(rng() % 40) * 0.25 - 3.0;
    if (keys[i] == 0 && rng() % 2) keys[i] = -0.0;
    const std::uint64_t g = rng() % (n_groups + 2);
    groups[i] = g == 3 ? 5 % (n_groups + 1) : g == n_groups + 1 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(g);
  }
  // The reference: sorted by (group, key with NaN last, id), numbered within each group.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < n; ++i)
    if (groups[i] < n_groups) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (groups[a] != groups[b]) return groups[a] < groups[b];
    const bool a_nan = std::isnan(keys[a]), b_nan = std::isnan(keys[b]);
    if (a_nan != b_nan) return b_nan;
    if (!a_nan && keys[a] != keys[b]) return keys[a] < keys[b];
    return a < b;
  });
  std::vector<std::uint64_t> expected(n, 0);
  for (std::size_t k = 0; k < order.size(); ++k)
    expected[order[k]] = k == 0 || groups[order[k - 1]] != groups[order[k]] ? 1 : expected[order[k - 1]] + 1;

  const auto [first, count] = uneven_share(n, world.rank(), world.size());
  const std::span<const double> my_keys(keys.data() + first, count);
  const std::span<const std::uint32_t> my_groups(groups.data() + first, count);
  const std::vector<std::uint64_t> ranks = mpi::global_ranks_within(MPI_Comm(world), my_keys, first, my_groups, n_groups);
  ASSERT_EQ(ranks.size(), count);
  for (std::size_t i = 0; i < count; ++i)
    ASSERT_EQ(ranks[i], expected[first + i]) << "item " << first + i << " of " << n << " (group " << groups[first + i]
                                             << ", key " << keys[first + i] << ") on rank " << world.rank();
}

TEST(LabelRanksTest, GlobalRanksWithinGroupsEqualASortedReference) {
  expect_ranks_within_equal_reference(3000, 6, 11);
  expect_ranks_within_equal_reference(4001, 2, 12);
  expect_ranks_within_equal_reference(5, 6, 13);  // fewer items than ranks' samples
  expect_ranks_within_equal_reference(0, 4, 14);
}

TEST(LabelRanksTest, OneGroupIsTheGlobalRank) {
  bmpi::communicator world;
  const std::size_t n = 2500;
  std::mt19937_64 rng(21);
  std::vector<double> keys(n);
  for (auto& k : keys) k = rng() % 10 == 0 ? std::nan("") : static_cast<double>(rng() % 100);
  const std::vector<std::uint32_t> groups(n, 0);
  const auto [first, count] = uneven_share(n, world.rank(), world.size());
  const std::span<const double> my_keys(keys.data() + first, count);
  EXPECT_EQ(mpi::global_ranks_within(MPI_Comm(world), my_keys, first, std::span(groups.data() + first, count), 1),
            mpi::global_ranks(MPI_Comm(world), my_keys, first));
  // No group at all: every item 0.
  EXPECT_EQ(mpi::global_ranks_within(MPI_Comm(world), my_keys, first, std::span(groups.data() + first, count), 0),
            std::vector<std::uint64_t>(count, 0));
}

// ---- labels agreed over ranks ----

class LabelsOverRanksTest : public ::testing::Test {
 public:
  // The lines without a usable label are expected: not listed on standard error.
  void SetUp() override {
    was_quiet_ = quiet();
    set_quiet(true);
  }
  void TearDown() override { set_quiet(was_quiet_); }

  static jobs::CorpusJob read(const bmpi::communicator& comm, const std::string& path, const config::LabelConfig& labels) {
    config::CorpusConfig corpus;
    corpus.inputs = {path};
    config::OutputConfig output;
    output.output = (fs::temp_directory_path() / "tdcone-never-written.h5").string();
    return jobs::read_corpus_job(comm, corpus, {}, output, &labels);
  }

  // Rank 0 writes `lines`; everyone waits.
  std::string write(const std::string& name, const std::vector<std::string>& lines) {
    bmpi::communicator world;
    const auto path = (dir_ / name).string();
    if (world.rank() == 0) {
      std::ofstream out(path);
      for (const auto& line : lines) out << line << "\n";
    }
    world.barrier();
    return path;
  }

  test_support::SharedTempDir scratch_{"labels_test"};
  const fs::path& dir_ = scratch_.path();
  bool was_quiet_ = false;
};

// Line i of the corpus of LabelsAgreeOnEveryRankCount, and its expected
// combination: kind (alpha, beta, early, late) * 3 + level bucket present
// (very low, low, very high); -1: bad line, -2: no usable label.
struct LabelledLine {
  std::string text;
  int combination;
};

LabelledLine labelled_line(std::size_t i, std::size_t n) {
  if (i % 97 == 50) return {cat("bad line ", i, " without a tab"), -1};
  const std::string kind = i < 3 ? "early" : i + 4 >= n ? "late" : i % 3 == 0 ? "beta" : "alpha";
  const int kind_index = kind == "alpha" ? 0 : kind == "beta" ? 1 : kind == "early" ? 2 : 3;
  // Levels 0..0.4 (very low below 0.25, low in [0.25, 0.5)), 0.95 (very high) in the last 10 lines only.
  const bool top = i + 10 >= n;
  const double level = top ? 0.95 : static_cast<double>(i % 5) * 0.1;
  const int level_index = top ? 2 : level < 0.25 ? 0 : 1;
  std::string text = cat("src w", i % 13, " w", i % 7, " x", i % 5, "\ttgt v", i % 11, " u", i % 3, "\t", kind);
  if (i % 41 == 7) return {text, -2};                   // missing label column 4
  if (i % 53 == 9) return {text + "\tn/a", -2};         // not a number under buckets
  if (i % 59 == 11) return {text + "\t" + "  ", -2};    // empty
  return {cat(text, "\t ", level, " "), kind_index * 3 + level_index};
}

TEST_F(LabelsOverRanksTest, LabelsAgreeOnEveryRankCount) {
  const std::size_t n = 3000;
  std::vector<std::string> lines;
  std::vector<int> expected;
  for (std::size_t i = 0; i < n; ++i) {
    const auto line = labelled_line(i, n);
    lines.push_back(line.text);
    expected.push_back(line.combination);
  }
  const std::string path = write("labels.tsv", lines);
  config::LabelConfig options;
  options.cols = "3,4";
  options.names = "kind,level";
  options.buckets = {"level=0.25,0.5,0.75"};

  bmpi::communicator world;
  const jobs::CorpusJob job = read(world, path, options);
  ASSERT_TRUE(job.labels.has_value());
  const label::PairLabels& labels = *job.labels;
  // The point of the test: with several ranks, some values are on one rank only.
  if (world.size() > 1 && world.rank() == world.size() - 1) {
    ASSERT_GT(job.share.size(), 0u);
    EXPECT_EQ(std::count(job.share.label_values[0].begin(), job.share.label_values[0].end(), "early"), 0);
  }
  if (world.size() > 1 && world.rank() == 0) {
    EXPECT_EQ(std::count(job.share.label_values[0].begin(), job.share.label_values[0].end(), "late"), 0);
  }

  // On every rank: the values and counts of the whole corpus.
  EXPECT_EQ(labels.space.names, (std::vector<std::string>{"kind", "level"}));
  EXPECT_EQ(labels.space.values,
            (std::vector<std::vector<std::string>>{{"alpha", "beta", "early", "late"}, {"very low", "low", "very high"}}));
  std::vector<std::uint64_t> counts(12, 0);
  std::uint64_t labelled = 0, problems = 0, bad = 0;
  for (int c : expected) {
    if (c >= 0) ++counts[c], ++labelled;
    problems += c == -2;
    bad += c == -1;
  }
  EXPECT_EQ(labels.counts, counts);
  EXPECT_EQ(labels.labelled, labelled);
  EXPECT_GT(counts[2 * 3 + 0], 0u);  // early
  EXPECT_GT(counts[3 * 3 + 2], 0u);  // late|very high
  EXPECT_EQ(counts[2 * 3 + 2], 0u);  // early|very high: absent
  EXPECT_EQ(job.counts.flagged, bad);
  EXPECT_EQ(mpi::sum_all<std::uint64_t>(world, job.share.label_problem_count), problems);

  const auto combinations = gather_in_order(world, labels.combination_of_pair);
  const auto flags = gather_in_order(world, job.share.flags);
  if (world.rank() != 0) return;
  ASSERT_EQ(combinations.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    const int c = expected[i];
    ASSERT_EQ(combinations[i], c >= 0 ? static_cast<std::uint32_t>(c) : label::kNoCombination) << "line " << i + 1;
    ASSERT_EQ(flags[i] & (schema::bad_line | schema::no_label), c == -1 ? schema::bad_line : c == -2 ? schema::no_label : 0)
        << "line " << i + 1;
  }
  // And the same as one rank reading it all.
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const jobs::CorpusJob single = read(self, path, options);
  EXPECT_EQ(single.labels->space.values, labels.space.values);
  EXPECT_EQ(single.labels->counts, labels.counts);
  EXPECT_EQ(single.labels->combination_of_pair, combinations);
}

// ---- /labels combined with shards ----

TEST_F(LabelsOverRanksTest, LabelSubsetsWithShardsEqualEachAlone) {
  bmpi::communicator world;
  // A synthetic corpus (with junk and bad lines), its score and id columns
  // replaced by two labels: kind a/b/c, level p/q; some lines without a level.
  const auto synth_path = (dir_ / "synth.tsv").string();
  if (world.rank() == 0) {
    synth::SynthOptions o;
    o.pairs = 6000;
    o.seed = 7;
    o.vocabulary = 3000;
    o.junk_fraction = 0.02;
    synth::write_corpus(o, synth_path);
  }
  world.barrier();
  std::vector<std::string> lines;
  if (world.rank() == 0) {
    std::ifstream in(synth_path);
    std::size_t i = 0;
    for (std::string line; std::getline(in, line); ++i) {
      std::vector<std::string> f;
      std::size_t at = 0;
      for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1) f.push_back(line.substr(at, tab - at));
      f.push_back(line.substr(at));
      if (f.size() < 2) {
        lines.push_back(line);  // stays a bad line
        continue;
      }
      const char* kinds[] = {"a", "b", "c"};
      std::string out = cat(f[0], "\t", f[1], "\t", kinds[(i * 2654435761u >> 7) % 3]);
      if (i % 29 != 3) out += (i / 50) % 2 ? "\tq" : "\tp";
      lines.push_back(out);
    }
  }
  const std::string path = write("labelled.tsv", lines);
  config::LabelConfig options;
  options.cols = "3,4";
  options.names = "kind,level";
  const jobs::CorpusJob job = read(world, path, options);
  ASSERT_TRUE(job.labels.has_value());

  const results::LabelSubsets label_sets = results::label_subsets(job.share, *job.labels);
  EXPECT_EQ(label_sets.names, (std::vector<std::string>{"a|p", "a|q", "b|p", "b|q", "c|p", "c|q", "a|*", "b|*", "c|*",
                                                        "*|p", "*|q"}));
  EXPECT_EQ(label_sets.groups.subset_count, 12u);
  const std::size_t shards = 3;
  const entropy::PairGroups shard_sets =
      entropy::shard_groups(job.share, entropy::assign_shards(job.share, shards, entropy::ShardBy::hash, 9), shards);
  const entropy::PairGroups combined = entropy::combine_groups(world, shard_sets, label_sets.groups);
  EXPECT_EQ(combined.subset_count, 1 + shards + label_sets.names.size());
  EXPECT_LE(combined.group_count(), shard_sets.group_count() * label_sets.groups.group_count());
  // Each pair's subsets: its shard's, then its label group's after the shards.
  ASSERT_EQ(combined.group_of_pair.size(), job.share.size());
  for (std::size_t i = 0; i < job.share.size(); ++i) {
    const std::uint32_t a = shard_sets.group_of_pair[i], b = label_sets.groups.group_of_pair[i];
    if (a == entropy::kNoGroup) {
      ASSERT_EQ(combined.group_of_pair[i], entropy::kNoGroup) << i;
      ASSERT_EQ(b, entropy::kNoGroup) << i;
      continue;
    }
    std::vector<std::uint32_t> subsets = shard_sets.subsets_of_group[a];
    for (std::uint32_t s : label_sets.groups.subsets_of_group[b])
      if (s > 0) subsets.push_back(static_cast<std::uint32_t>(shards + s));
    ASSERT_LT(combined.group_of_pair[i], combined.group_count()) << i;
    ASSERT_EQ(combined.subsets_of_group[combined.group_of_pair[i]], subsets) << "pair " << job.share.first_pair_id + i;
  }

  auto score = [&](const entropy::PairGroups& groups) {  // a job is scored once: each run gets its own copy
    jobs::CorpusJob copy = job;
    return jobs::score_corpus_job(world, copy, {}, {}, groups);
  };
  const jobs::JobScores both = score(combined);
  const jobs::JobScores labels_alone = score(label_sets.groups);
  const jobs::JobScores shards_alone = score(shard_sets);
  ASSERT_EQ(both.subsets.size(), combined.subset_count);
  ASSERT_EQ(labels_alone.subsets.size(), label_sets.groups.subset_count);
  ASSERT_EQ(shards_alone.subsets.size(), 1 + shards);
  expect_same_scores(both.subsets[0], labels_alone.subsets[0], "corpus, labels alone");
  expect_same_scores(both.subsets[0], shards_alone.subsets[0], "corpus, shards alone");
  for (std::size_t k = 1; k <= shards; ++k) expect_same_scores(both.subsets[k], shards_alone.subsets[k], cat("shard ", k - 1));
  for (std::size_t j = 0; j < label_sets.names.size(); ++j)
    expect_same_scores(both.subsets[1 + shards + j], labels_alone.subsets[1 + j], "labels " + label_sets.names[j]);
  // A combination's subset holds its lines: the global counts.
  for (std::size_t j = 0; j < 6; ++j)
    EXPECT_EQ(labels_alone.subsets[1 + j].n_pairs, job.labels->counts[label_sets.combination_of_group[j]])
        << label_sets.names[j];
  // "a|*" holds a|p and a|q; "*|q" holds a|q, b|q and c|q.
  EXPECT_EQ(labels_alone.subsets[7].n_pairs, job.labels->counts[0] + job.labels->counts[1]);
  EXPECT_EQ(labels_alone.subsets[11].n_pairs, job.labels->counts[1] + job.labels->counts[3] + job.labels->counts[5]);
  EXPECT_GT(labels_alone.subsets[1].n_pairs, 0u);
}

}  // namespace
}  // namespace tdcone
