// A parallel two-file corpus (--src-file / --tgt-file) reads, on any number
// of ranks, exactly as the pasted TSV "SRC\tTGT" does on one: the same pairs
// in the same order, the same flags and bad-line positions, whatever the
// compression of either side and however the shares cut the files.
#include <gtest/gtest.h>
#include <zlib.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <zstd.h>

#include "shared_dir.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/parallel_files.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/mpi/share_reader.hpp"

namespace tdcone {
namespace {

namespace bmpi = boost::mpi;

// One line per pair: flags, lengths and the words of both sides, on rank 0.
std::vector<std::string> describe(const bmpi::communicator& comm, const text::TokenizedShare& share,
                                  const text::Vocabulary& vocabulary) {
  std::vector<std::string> mine;
  for (std::size_t i = 0; i < share.size(); ++i) {
    std::string d = cat(share.first_pair_id + i, " f", int(share.flags[i]), " ", share.src_len[i], "/", share.tgt_len[i], " |");
    // Words sorted as text: word ids depend on what a rank read first.
    for (auto types : {share.src_types(i), share.tgt_types(i)}) {
      std::vector<std::string> words;
      for (auto w : types) words.emplace_back(vocabulary.word(w));
      std::sort(words.begin(), words.end());
      for (const auto& w : words) d.append(" ").append(w);
      d.append(" |");
    }
    mine.push_back(d);
  }
  std::vector<std::vector<std::string>> parts;
  bmpi::gather(comm, mine, parts, 0);
  std::vector<std::string> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

std::string zstd_frames(std::mt19937& rng, const std::string& text) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t n = std::min(text.size() - start, std::size_t(1 + rng() % 700));
    std::string frame(ZSTD_compressBound(n), '\0');
    frame.resize(ZSTD_compress(frame.data(), frame.size(), text.data() + start, n, 1));
    out += frame;
    start += n;
  }
  return out;
}

std::string gzip_member(const std::string& text) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, text.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// Lines of random words (some empty, some long, some not UTF-8).
std::vector<std::string> random_lines(std::mt19937& rng, std::size_t n) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < n; ++i) {
    std::string line;
    const std::size_t words = rng() % 8 == 0 ? 0 : rng() % (rng() % 20 == 0 ? 200 : 12);
    for (std::size_t k = 0; k < words; ++k) line.append(k ? " w" : "w").append(std::to_string(rng() % 300));
    if (rng() % 97 == 0) line += "\xC3\x28";  // invalid UTF-8
    lines.push_back(line);
  }
  return lines;
}

class ParallelFilesTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
  void write(const std::string& name, const std::string& bytes) const {
    if (bmpi::communicator().rank() == 0) std::ofstream(path(name), std::ios::binary) << bytes;
  }

  // Reads src/tgt as a parallel corpus and their paste as one TSV; compares.
  void expect_like_pasted(const std::vector<std::string>& src, const std::vector<std::string>& tgt,
                          const std::string& pasted, const std::string& what) {
    bmpi::communicator comm;
    comm.barrier();  // files written by rank 0
    text::ReadOptions options;
    options.max_line_bytes = 1 << 16;
    text::Vocabulary v1, v2;
    const auto expected = mpi::read_share(comm, io::resolve_inputs({pasted}), options, v1);
    std::vector<std::string> src_paths, tgt_paths;
    for (const auto& s : src) src_paths.push_back(path(s));
    for (const auto& t : tgt) tgt_paths.push_back(path(t));
    const auto src_files = io::resolve_inputs(src_paths), tgt_files = io::resolve_inputs(tgt_paths);
    io::check_parallel_files(src_files, tgt_files);
    const auto got = mpi::read_parallel_share(comm, src_files, tgt_files, options, v2);
    EXPECT_EQ(got.total_lines, expected.total_lines) << what;
    const auto want = describe(comm, expected, v1), have = describe(comm, got, v2);
    // No ASSERT before a collective call: a rank leaving early would leave the others waiting.
    if (comm.rank() == 0) {
      EXPECT_EQ(have.size(), want.size()) << what;
      for (std::size_t i = 0; i < std::min(want.size(), have.size()); ++i)
        if (have[i] != want[i]) {
          ADD_FAILURE() << what << ", pair " << i << ": " << have[i] << " != " << want[i];
          break;
        }
    }
    // Bad lines: the same pairs, at the same line of a file of the side that is bad.
    const auto bad_want = mpi::first_bad_lines(comm, expected.bad_lines), bad_have = mpi::first_bad_lines(comm, got.bad_lines);
    EXPECT_EQ(bad_have.size(), bad_want.size()) << what;
    for (std::size_t k = 0; k < std::min(bad_want.size(), bad_have.size()); ++k) {
      EXPECT_EQ(bad_have[k].pair_id, bad_want[k].pair_id) << what;
      EXPECT_EQ(bad_have[k].reason, bad_want[k].reason) << what;
    }
  }

  test_support::SharedTempDir dir_{"parallel_files_test"};
};

TEST_F(ParallelFilesTest, SameAsThePastedTsvForAnyCompressionAndCut) {
  std::mt19937 rng(1234);  // every rank draws the same texts
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<std::string> src_names, tgt_names;
    std::string pasted;
    const int n_files = 1 + trial % 3;
    for (int f = 0; f < n_files; ++f) {
      const std::size_t n = trial == 5 && f == 1 ? 0 : 1 + rng() % 900;  // an empty pair of files too
      const auto src = random_lines(rng, n), tgt = random_lines(rng, n);
      std::string src_text, tgt_text;
      const bool crlf = rng() % 2;
      for (std::size_t i = 0; i < n; ++i) {
        src_text += src[i] + "\n";
        tgt_text += tgt[i] + (crlf ? "\r\n" : "\n");
        pasted += src[i] + "\t" + tgt[i] + "\n";
      }
      if (n > 0 && rng() % 2) tgt_text.resize(tgt_text.size() - (crlf ? 2 : 1));  // no final line end
      const std::string s = cat("s", trial, "_", f), t = cat("t", trial, "_", f);
      const int kind = (trial + f) % 4;  // tgt: plain, multi-frame zstd, gzip; src: plain or zstd
      write(s, kind == 3 ? zstd_frames(rng, src_text) : src_text);
      write(t, kind == 1 ? zstd_frames(rng, tgt_text) : kind == 2 ? gzip_member(tgt_text) : tgt_text);
      src_names.push_back(s);
      tgt_names.push_back(t);
    }
    write(cat("pasted", trial), pasted);
    expect_like_pasted(src_names, tgt_names, path(cat("pasted", trial)), cat("trial ", trial));
  }
}

TEST_F(ParallelFilesTest, DifferentLineCountsStopEveryRankNamingBothFilesAndCounts) {
  write("src", "a\nb\nc\n");
  write("tgt", "x\ny\n");
  bmpi::communicator comm;
  comm.barrier();
  text::ReadOptions options;
  text::Vocabulary vocabulary;
  try {
    mpi::read_parallel_share(comm, io::resolve_inputs({path("src")}), io::resolve_inputs({path("tgt")}), options,
                              vocabulary);
    FAIL() << "no error";
  } catch (const mpi::CollectiveError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.exit_status, 1);
    EXPECT_NE(message.find(path("src") + " has 3 line(s)"), std::string::npos) << message;
    EXPECT_NE(message.find(path("tgt") + " has 2"), std::string::npos) << message;
  }
}

TEST_F(ParallelFilesTest, BadTgtLineIsReportedInTheTgtFile) {
  write("src", "a\nb\nc\n");
  write("tgt", "x\n\xFF\nz\n");
  bmpi::communicator comm;
  comm.barrier();
  text::ReadOptions options;
  text::Vocabulary vocabulary;
  const auto share = mpi::read_parallel_share(comm, io::resolve_inputs({path("src")}),
                                               io::resolve_inputs({path("tgt")}), options, vocabulary);
  const auto bad = mpi::first_bad_lines(comm, share.bad_lines);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].pair_id, 1u);
  EXPECT_EQ(bad[0].file, path("tgt"));
  EXPECT_EQ(bad[0].line, 2u);
  EXPECT_EQ(bad[0].reason, "invalid UTF-8");
}

}  // namespace
}  // namespace tdcone
