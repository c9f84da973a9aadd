// Properties of distributed cynical selection: the same ranking for any
// number of ranks, every line once, exact cross-entropies, batch ≈ one-by-one,
// and better than a random order on topical data.
#include <gtest/gtest.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "shared_dir.hpp"
#include "tdcone/mpi/share_reader.hpp"
#include "tdcone/select/corpora.hpp"

namespace tdcone::select {
namespace {

namespace fs = std::filesystem;
namespace bmpi = boost::mpi;

// Lines of a few words drawn from one of `topics` topics of 150 words each,
// plus a few common words; REPR uses only the first two topics.
std::string topical_text(std::size_t lines, std::size_t topics, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    const std::size_t topic = rng() % topics, length = 3 + rng() % 10;
    for (std::size_t k = 0; k < length; ++k) {
      if (rng() % 4 == 0) {  // a common word
        text.append("the").append(std::to_string(rng() % 8));
      } else {
        text.append("t").append(std::to_string(topic)).append("w").append(std::to_string(rng() % 150));
      }
      text += k + 1 < length ? ' ' : '\n';
    }
  }
  return text;
}

struct Result {
  Statistics stats;
  Selection selection;
  std::vector<std::uint64_t> junk;           // pair_ids, on rank 0
  std::map<std::uint64_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> words;  // on the one-rank run
  std::map<std::uint64_t, std::uint32_t> length;
};

Result run_selection(const bmpi::communicator& comm, const std::string& repr, const std::string& avail,
                     const CynicalOptions& options) {
  text::ReadOptions read;
  read.keep_counts = true;
  read.fields.src_col = read.fields.tgt_col = 1;
  Corpora corpora;
  corpora.representative = mpi::read_share(comm, io::resolve_inputs({repr}), read, corpora.vocabulary);
  corpora.available = mpi::read_share(comm, io::resolve_inputs({avail}), read, corpora.vocabulary);
  Result r;
  std::vector<std::uint32_t> lexicon_id;
  r.stats = gather_statistics(comm, corpora, Side::src, lexicon_id);
  std::vector<std::size_t> junk;
  const AvailableLines lines = available_lines(corpora.available, Side::src, lexicon_id, options.length_cap, junk);
  r.selection = select_lines(comm, r.stats, lines, options);
  std::vector<std::uint64_t> my_junk;
  for (auto i : junk) my_junk.push_back(corpora.available.first_pair_id + i);
  std::vector<std::vector<std::uint64_t>> all;
  bmpi::gather(comm, my_junk, all, 0);
  for (auto& part : all) r.junk.insert(r.junk.end(), part.begin(), part.end());
  if (comm.size() == 1)
    for (std::size_t i = 0; i < lines.size(); ++i) {
      for (auto k = lines.start[i]; k < lines.start[i + 1]; ++k) r.words[lines.pair_id[i]].emplace_back(lines.words[k], lines.counts[k]);
      r.length[lines.pair_id[i]] = lines.length[i];
    }
  return r;
}

// H of REPR under the add-ε unigram model of `order`'s first n lines, from scratch.
double entropy_of_prefix(const Result& r, const std::vector<std::uint64_t>& order, std::size_t n) {
  std::vector<double> count(r.stats.lexicon.size(), 0.0);
  double tokens = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (auto [v, c] : r.words.at(order[i])) count[v] += c;
    tokens += r.length.at(order[i]);
  }
  const double eps = 0.01, denominator = tokens + eps * double(count.size());
  double h = 0;
  for (std::size_t v = 0; v < count.size(); ++v)
    if (r.stats.repr[v] > 0)
      h -= double(r.stats.repr[v]) / double(r.stats.repr_tokens) * std::log((count[v] + eps) / denominator);
  return h;
}

std::vector<std::uint64_t> order_of(const Selection& s) {
  std::vector<std::uint64_t> order;
  for (const auto& line : s.ranked) order.push_back(line.pair_id);
  return order;
}

class SelectPropertyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bmpi::communicator world;
    if (world.rank() == 0) {
      std::ofstream(repr()) << topical_text(300, 2, 1);
      std::ofstream(avail()) << topical_text(6000, 10, 2) << "\n" << std::string(20, 'x') << "\n";  // + an empty line
    }
    world.barrier();
  }
  std::string repr() const { return (dir_.path() / "repr.txt").string(); }
  std::string avail() const { return (dir_.path() / "avail.txt").string(); }
  test_support::SharedTempDir dir_{"select_property_test"};
};

TEST_F(SelectPropertyTest, SameRankingForAnyRankCountAndEveryLineOnce) {
  bmpi::communicator world;
  CynicalOptions options;
  options.length_cap = 12;  // some lines are junk
  const Result distributed = run_selection(world, repr(), avail(), options);
  if (world.rank() != 0) return;
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const Result single = run_selection(self, repr(), avail(), options);
  ASSERT_EQ(distributed.selection.ranked.size(), single.selection.ranked.size());
  for (std::size_t i = 0; i < single.selection.ranked.size(); ++i) {
    const RankedLine &a = distributed.selection.ranked[i], &b = single.selection.ranked[i];
    ASSERT_EQ(a.pair_id, b.pair_id) << "rank " << i + 1;
    ASSERT_EQ(a.delta_h, b.delta_h);
    ASSERT_EQ(a.cross_entropy, b.cross_entropy);
    ASSERT_EQ(a.root_word, b.root_word);
  }
  EXPECT_EQ(distributed.selection.stop_rank, single.selection.stop_rank);
  EXPECT_EQ(distributed.junk, single.junk);
  EXPECT_FALSE(single.junk.empty());
  std::vector<std::uint64_t> all = order_of(single.selection);
  all.insert(all.end(), single.junk.begin(), single.junk.end());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i);  // 6002 lines, each exactly once
  EXPECT_EQ(all.size(), 6002u);
}

TEST_F(SelectPropertyTest, CrossEntropyIsThatOfTheSelectedPrefix) {
  bmpi::communicator world;
  if (world.rank() != 0) return;
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const Result r = run_selection(self, repr(), avail(), {});
  const auto order = order_of(r.selection);
  EXPECT_NEAR(r.selection.h_initial, entropy_of_prefix(r, order, 0), 1e-9 * r.selection.h_initial);
  for (std::size_t n = 1; n <= order.size(); n += std::max<std::size_t>(1, order.size() / 37)) {
    const double expected = entropy_of_prefix(r, order, n);
    ASSERT_NEAR(r.selection.ranked[n - 1].cross_entropy, expected, 1e-9 * expected) << "n = " << n;
  }
  const auto& stop = r.selection.ranked[r.selection.stop_rank - 1];
  for (const auto& line : r.selection.ranked) EXPECT_GE(line.cross_entropy, stop.cross_entropy);
}

// The lazy search is exact: one by one, every pick is, of the unselected
// lines holding its root word, the one with the lowest ΔH (ties: pair_id),
// recomputed here from scratch; and any number of ranks picks the same.
TEST_F(SelectPropertyTest, OneByOneTakesTheBestLineOfItsRootWord) {
  bmpi::communicator world;
  CynicalOptions options;
  options.batch = false;
  const Result distributed = run_selection(world, repr(), avail(), options);
  if (world.rank() != 0) return;
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const Result r = run_selection(self, repr(), avail(), options);
  ASSERT_EQ(order_of(distributed.selection), order_of(r.selection));

  const double eps = options.epsilon, eps_lexicon = eps * double(r.stats.lexicon.size());
  std::vector<double> count(r.stats.lexicon.size(), 0.0);
  double tokens = 0;
  std::map<std::uint64_t, bool> taken;
  const auto delta_h = [&](std::uint64_t id) {
    double gain = 0;
    for (auto [v, c] : r.words.at(id))
      if (r.stats.repr[v] > 0)
        gain += double(r.stats.repr[v]) / double(r.stats.repr_tokens) * std::log((count[v] + eps) / (count[v] + c + eps));
    return std::log((tokens + r.length.at(id) + eps_lexicon) / (tokens + eps_lexicon)) + gain;
  };
  for (std::size_t n = 0; n < 400; ++n) {
    const RankedLine& pick = r.selection.ranked[n];
    std::uint64_t best = pick.pair_id;
    double best_delta = delta_h(best);
    EXPECT_NEAR(pick.delta_h, best_delta, 1e-9) << "n = " << n;
    for (const auto& [id, words] : r.words) {
      if (taken[id] || std::none_of(words.begin(), words.end(), [&](auto w) { return w.first == pick.root_word; })) continue;
      const double d = delta_h(id);
      if (d < best_delta - 1e-12 || (std::abs(d - best_delta) <= 1e-12 && id < best)) best = id, best_delta = d;
    }
    ASSERT_EQ(pick.pair_id, best) << "pick " << n + 1 << ": line " << best << " has ΔH " << best_delta
                                  << ", the pick " << pick.delta_h;
    taken[pick.pair_id] = true;
    for (auto [v, c] : r.words.at(pick.pair_id)) count[v] += c;
    tokens += r.length.at(pick.pair_id);
  }
}

TEST_F(SelectPropertyTest, BatchAndOneByOneAgreeWithinOnePercentAtTenPercent) {
  bmpi::communicator world;
  CynicalOptions batch, single;
  single.batch = false;
  const Result a = run_selection(world, repr(), avail(), batch);
  const Result b = run_selection(world, repr(), avail(), single);
  if (world.rank() != 0) return;
  const std::size_t n = a.selection.ranked.size() / 10;
  const double ha = a.selection.ranked[n - 1].cross_entropy, hb = b.selection.ranked[n - 1].cross_entropy;
  EXPECT_LT(std::abs(ha - hb), 0.01 * hb) << "batch " << ha << ", one by one " << hb;
}

TEST_F(SelectPropertyTest, BeatsARandomOrderOnTopicalData) {
  bmpi::communicator world;
  if (world.rank() != 0) return;
  const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
  const Result r = run_selection(self, repr(), avail(), {});
  auto random = order_of(r.selection);
  std::shuffle(random.begin(), random.end(), std::mt19937_64(7));
  for (double fraction : {0.01, 0.05, 0.10, 0.25}) {
    const std::size_t n = static_cast<std::size_t>(fraction * random.size());
    EXPECT_LT(r.selection.ranked[n - 1].cross_entropy, entropy_of_prefix(r, random, n)) << fraction;
  }
}

}  // namespace
}  // namespace tdcone::select
