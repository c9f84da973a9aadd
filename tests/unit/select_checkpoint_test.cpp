// Selection checkpoints (docs/spec.md §9): a resumed selection is the uninterrupted
// one; damaged, foreign or inconsistent checkpoints are refused with a
// message, never crash and never continue; files that are not checkpoints are
// never replaced or removed; the input fingerprint follows the lines, not the ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/select/checkpoint.hpp"
#include "tdcone/mpi/share_reader.hpp"
#include "tdcone/select/corpora.hpp"
#include "temp_files.hpp"

namespace tdcone::select {
namespace {

namespace bmpi = boost::mpi;

::testing::AssertionResult mentions(const std::string& message, const std::string& part) {
  if (message.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << message << "' lacks '" << part << "'";
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// AVAIL lines over a small vocabulary, with an empty (junk) line at pair_id 5.
std::string available_text() {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    if (i == 5) {
      text += "\n";
      continue;
    }
    text += cat("w", i % 7, " w", i % 11, " v", i, "\n");
  }
  return text;
}

text::ReadOptions one_column() {
  text::ReadOptions read;
  read.keep_counts = true;
  read.fields.tgt_col = 1;  // one column: the line is the src side
  read.tokenizer.kind = text::TokenizerKind::whitespace;
  return read;
}

// A one-rank selection of 39 lines, one a iteration, and the state it saves at
// its second poll (16 lines in), as `tdcone select` would checkpoint it.
class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto load = [&](const std::string& name, const std::string& text) {
      return mpi::read_share(self, io::resolve_inputs({dir.write(name, text)}), one_column(), corpora.vocabulary);
    };
    corpora.representative = load("repr.txt", "w1 w2 w3\nw3 w4 v7\nw0 w5 w6 v20\n");
    corpora.available = load("avail.txt", available_text());
    std::vector<std::uint32_t> lexicon_id;
    stats = gather_statistics(self, corpora, Side::src, lexicon_id);
    std::vector<std::size_t> junk;
    lines = available_lines(corpora.available, Side::src, lexicon_id, options.length_cap, junk);
    options.mincount = 1;
    options.batch = false;
    whole = select_lines(self, stats, lines, options);

    int polls = 0;
    Interrupt interrupt;
    interrupt.poll = [&] { return ++polls == 2 ? 2 : 0; };
    interrupt.save = [&](const SelectionState& state) { saved = state; };
    ASSERT_TRUE(select_lines(self, stats, lines, options, {}, interrupt).interrupted);
    ASSERT_EQ(saved.ranked.size(), 16u);
    key = {{1, 2, 3, 0, 0}, corpora.available.total_lines, stats.lexicon.size()};
    path = dir.path("run.ckpt");
  }

  Selection resume_from(const SelectionState& state) { return select_lines(self, stats, lines, options, {}, {}, &state); }

  // The message read_checkpoint refuses the file at `path` with ("" when it accepts it).
  std::string refusal(const CheckpointKey& expected) {
    try {
      read_checkpoint(path, expected);
    } catch (const UsageError& e) {
      return e.what();
    }
    return {};
  }
  std::string refusal_of_bytes(const std::string& bytes) {
    dir.write("run.ckpt", bytes);
    return refusal(key);
  }
  std::string refusal_of_state(const SelectionState& state) {
    write_checkpoint(path, key.fingerprint, state);
    return refusal(key);
  }

  // The message select_lines refuses `state` with on every rank (empty when it continues).
  std::string misfit(const SelectionState& state) {
    try {
      resume_from(state);
    } catch (const mpi::CollectiveError& e) {
      EXPECT_EQ(e.exit_status, 2);
      return e.what();
    }
    return {};
  }

  test_support::TempDir dir{"tdcone_checkpoint_test"};
  const bmpi::communicator self{MPI_COMM_SELF, bmpi::comm_attach};
  Corpora corpora;
  Statistics stats;
  AvailableLines lines;
  CynicalOptions options;
  Selection whole;
  SelectionState saved;
  CheckpointKey key;
  std::string path;
};

TEST_F(CheckpointTest, ResumedSelectionIsTheUninterruptedOne) {
  write_checkpoint(path, key.fingerprint, saved);
  const SelectionState state = read_checkpoint(path, key);
  const Selection resumed = resume_from(state);
  ASSERT_EQ(resumed.ranked.size(), whole.ranked.size());
  for (std::size_t n = 0; n < whole.ranked.size(); ++n) {
    EXPECT_EQ(resumed.ranked[n].pair_id, whole.ranked[n].pair_id) << n;
    EXPECT_EQ(resumed.ranked[n].delta_h, whole.ranked[n].delta_h) << n;
    EXPECT_EQ(resumed.ranked[n].cross_entropy, whole.ranked[n].cross_entropy) << n;
  }
  EXPECT_EQ(resumed.stop_rank, whole.stop_rank);
}

TEST_F(CheckpointTest, EverySingleBitFlipIsRefused) {
  write_checkpoint(path, key.fingerprint, saved);
  const std::string good = read_bytes(path);
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  const auto put = [&](std::size_t at, char byte) {  // in place: rewriting the file each time is slow on some disks
    file.seekp(static_cast<std::streamoff>(at));
    file.put(byte).flush();
  };
  std::size_t refused = 0;
  for (std::size_t bit = 0; bit < 8 * good.size(); ++bit) {
    put(bit / 8, static_cast<char>(good[bit / 8] ^ (1 << (bit % 8))));
    try {
      read_checkpoint(path, key);
      ADD_FAILURE() << "bit " << bit << " of " << 8 * good.size() << " flipped: accepted";
    } catch (const UsageError& e) {
      refused += std::string(e.what()).find(path) != std::string::npos;
    }
    put(bit / 8, good[bit / 8]);
  }
  EXPECT_EQ(refused, 8 * good.size()) << "every refusal names the file";
  EXPECT_NO_THROW(read_checkpoint(path, key));
}

TEST_F(CheckpointTest, DamagedTruncatedOrForeignFilesAreRefused) {
  write_checkpoint(path, key.fingerprint, saved);
  const std::string bytes = read_bytes(path);
  std::string payload = bytes;
  for (std::size_t at = payload.size() / 2; at < payload.size() / 2 + 8; ++at) payload[at] = 'x';
  EXPECT_TRUE(mentions(refusal_of_bytes(payload), "checksum mismatch"));
  EXPECT_TRUE(mentions(refusal_of_bytes(bytes.substr(0, bytes.size() - 1)), "checksum mismatch"));
  EXPECT_TRUE(mentions(refusal_of_bytes(bytes.substr(0, 30)), "truncated"));
  EXPECT_TRUE(mentions(refusal_of_bytes("pair_id\ttext\n"), "not a tdcone checkpoint"));
  EXPECT_TRUE(mentions(refusal_of_bytes(""), "not a tdcone checkpoint"));
  EXPECT_TRUE(mentions(refusal_of_bytes("tdcone-checkpoint-1\n(zstd)"), "format 1 of another tdcone version"));
  EXPECT_EQ(refusal_of_bytes(bytes), "");
}

TEST_F(CheckpointTest, OtherInputsOrOptionsAreNamed) {
  write_checkpoint(path, key.fingerprint, saved);
  CheckpointKey other = key;
  other.fingerprint.available ^= 1;
  EXPECT_TRUE(mentions(refusal(other), "belongs to another selection: its --available lines differ"));
  other.fingerprint.options ^= 1;
  EXPECT_TRUE(mentions(refusal(other), "belongs to another selection: its options, --available lines differ"));
}

TEST_F(CheckpointTest, IndicesAndRankingOutOfPlaceAreRefused) {
  ASSERT_EQ(refusal_of_state(saved), "");
  const auto changed = [&](auto change) {
    SelectionState s = saved;
    change(s);
    return refusal_of_state(s);
  };
  const std::uint64_t n_lines = key.available_lines;
  EXPECT_TRUE(mentions(changed([&](SelectionState& s) { s.ranked[3].pair_id = n_lines; }), "pair_id 40, not a new line"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.ranked[3].pair_id = s.ranked[2].pair_id; }), "not a new line"));
  EXPECT_TRUE(mentions(changed([&](SelectionState& s) { s.ranked[7].root_word = std::uint32_t(key.lexicon_size); }),
                       "root word"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.counts.pop_back(); }), "a model of"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.counts.resize(s.counts.size() + 1000); }),
                       "larger than any state of these inputs"));  // refused before it is decompressed
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.tokens = std::nan(""); }), "not finite"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.ranked[1].gain += 1e-9; }), "do not add up"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.ranked[1].cross_entropy = std::nan(""); }), "do not add up"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { ++s.stop_rank; }), "stop rank"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.best_h -= 1e-9; }), "stop rank"));
  EXPECT_TRUE(mentions(changed([&](SelectionState& s) {
                         const RankedLine first = s.ranked[0];
                         s.ranked.resize(n_lines + 1, first);
                       }),
                       "ranked lines of"));
}

TEST_F(CheckpointTest, StatesThatDoNotFitTheLinesAreRefusedOnEveryRank) {
  ASSERT_EQ(misfit(saved), "");
  const auto changed = [&](auto change) {
    SelectionState s = saved;
    change(s);
    return misfit(s);
  };
  const auto word = [&](const std::string& w) {
    return std::uint32_t(std::lower_bound(stats.lexicon.begin(), stats.lexicon.end(), w) - stats.lexicon.begin());
  };
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.ranked[2].pair_id = 5; }), "not selectable lines"));  // junk
  EXPECT_TRUE(mentions(changed([&](SelectionState& s) {  // each line has its own v word
                         s.ranked[0].root_word = word(s.ranked[0].pair_id == 0 ? "v1" : "v0");
                       }),
                       "lack their root word"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.second_pass = !s.second_pass; }), "pass"));
  EXPECT_TRUE(mentions(changed([&](SelectionState& s) {  // still adds up to the tokens
                         s.counts[word("w1")] += 1;
                         s.tokens += 1;
                       }),
                       "model counts"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.h_initial += 1e-12; }), "initial cross-entropy"));
  EXPECT_TRUE(mentions(changed([](SelectionState& s) { s.log_sum += 1e-9; }), "last cross-entropy"));
}

TEST_F(CheckpointTest, NothingButACheckpointIsReplacedOrRemoved) {
  const std::string tsv = dir.write("existing.tsv", "pair_id\ttext\n");
  const std::string folder = dir.path("folder");
  std::filesystem::create_directory(folder);
  EXPECT_THROW(check_checkpoint_path(tsv, false), UsageError);
  EXPECT_THROW(check_checkpoint_path(tsv, true), UsageError);
  EXPECT_THROW(check_checkpoint_path(folder, false), UsageError);
  EXPECT_THROW(check_checkpoint_path(dir.path("no/such/dir.ckpt"), false), UsageError);
  EXPECT_THROW(check_checkpoint_path(path, true), UsageError);  // --resume without a checkpoint
  EXPECT_NO_THROW(check_checkpoint_path(path, false));
  EXPECT_THROW(write_checkpoint(tsv, key.fingerprint, saved), IoError);
  EXPECT_THROW(write_checkpoint(folder, key.fingerprint, saved), IoError);
  remove_checkpoint(tsv);
  remove_checkpoint(folder);
  EXPECT_EQ(read_bytes(tsv), "pair_id\ttext\n");
  EXPECT_TRUE(std::filesystem::is_directory(folder));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), {}), 0);

  write_checkpoint(path, key.fingerprint, saved);
  EXPECT_NO_THROW(check_checkpoint_path(path, true));
  write_checkpoint(path, key.fingerprint, saved);  // a checkpoint is replaced
  EXPECT_NO_THROW(read_checkpoint(path, key));
  remove_checkpoint(path);
  EXPECT_FALSE(std::filesystem::exists(path));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path("")))
    EXPECT_EQ(entry.path().string().find("partial"), std::string::npos) << "left behind: " << entry.path();
}

// The share [begin, end) of `whole`, as a rank holding those lines reads it.
text::TokenizedShare slice(const text::TokenizedShare& whole, std::size_t begin, std::size_t end) {
  text::TokenizedShare part;
  part.first_pair_id = whole.first_pair_id + begin;
  part.flags.assign(whole.flags.begin() + begin, whole.flags.begin() + end);
  part.src_hash.assign(whole.src_hash.begin() + begin, whole.src_hash.begin() + end);
  part.tgt_hash.assign(whole.tgt_hash.begin() + begin, whole.tgt_hash.begin() + end);
  return part;
}

TEST_F(CheckpointTest, FingerprintFollowsTheLinesNotTheRanks) {
  const text::TokenizedShare& all = corpora.available;
  const std::uint64_t one_rank = lines_fingerprint(all);
  for (std::size_t ranks = 2; ranks <= 4; ++ranks) {
    std::uint64_t sum = 0;
    for (std::size_t r = 0; r < ranks; ++r)
      sum += lines_fingerprint(slice(all, r * all.size() / ranks, (r + 1) * all.size() / ranks));
    EXPECT_EQ(sum, one_rank) << ranks << " ranks";
  }
  text::Vocabulary vocabulary;
  const auto fingerprint_of = [&](const std::string& text) {
    const auto files = io::resolve_inputs({dir.write("other.txt", text)});
    return lines_fingerprint(mpi::read_share(self, files, one_column(), vocabulary));
  };
  std::string text = available_text();
  EXPECT_EQ(fingerprint_of(text), one_rank);
  std::string swapped = text;
  std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 9);  // "w0 w0 v0\n" and "w1 w1 v1\n"
  ASSERT_EQ(swapped.substr(0, 18), "w1 w1 v1\nw0 w0 v0\n");
  EXPECT_NE(fingerprint_of(swapped), one_rank);
  EXPECT_NE(fingerprint_of(text.substr(0, text.size() - 1) + " x\n"), one_rank);  // a word more on the last line
  EXPECT_NE(fingerprint_of(text.substr(text.find('\n') + 1)), one_rank);          // a line less
}

}  // namespace
}  // namespace tdcone::select
