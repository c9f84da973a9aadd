// The input text of a run's lines read again (exporting/text.hpp): what a
// result records of its inputs, the requested lines' raw bytes and parsed
// sides (after --reverse), visited in order, and an input that is missing
// or no longer the one the run read refused by name.
#include "tdcone/exporting/text.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tdcone/jobs/score_job.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::exporting {
namespace {

namespace bmpi = boost::mpi;

class LineTextsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = dir_.write("a.tsv", "x1\ty1\nx2\ty2\n");
    b_ = dir_.write("b.tsv", "bad line\nx4\ty4\n");
    jobs::ScoreConfig score;
    score.corpus.inputs = {a_, b_};
    score.output.output = dir_.path("score.h5");
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    jobs::run_score_job(self, score, "");
  }
  RunInputs run(const std::vector<std::string>& inputs = {}, bool reverse = false) {
    const hdf5::Reader reader(dir_.path("score.h5"));
    return recorded_inputs(reader, dir_.path("score.h5"), false, inputs, std::nullopt,
                           [reverse](const std::string&, const std::string&) {
                             RunSettings settings;
                             settings.corpus.reverse = reverse;
                             return settings;
                           });
  }
  static TextRequest request(std::vector<std::uint64_t> ids, std::vector<bool> bad, bool raw) {
    TextRequest r;
    r.pair_ids = std::move(ids);
    r.bad = std::move(bad);
    r.raw = raw;
    r.fields = true;
    return r;
  }

  test_support::TempDir dir_{"tdcone_text_test"};
  std::string a_, b_;
};

TEST_F(LineTextsTest, RecordedInputsAreTheRunsFilesSizesAndLines) {
  const RunInputs r = run();
  EXPECT_EQ(r.recorded_paths, (std::vector<std::string>{a_, b_}));
  EXPECT_EQ(r.paths, r.recorded_paths);
  EXPECT_FALSE(r.overridden);
  EXPECT_EQ(r.sizes, (std::vector<std::uint64_t>{12, 15}));
  EXPECT_EQ(r.lines, (std::vector<std::uint64_t>{2, 2}));
  EXPECT_EQ(r.fingerprints.size(), 2u);
  EXPECT_EQ(r.n_lines, 4u);
  EXPECT_FALSE(r.side.has_value());
  const RunInputs moved = run({dir_.path("*.tsv")});
  EXPECT_TRUE(moved.overridden);
  EXPECT_EQ(moved.recorded_paths, r.recorded_paths);
}

TEST_F(LineTextsTest, RequestedLinesGiveTheirSidesAndABadLineItsRawText) {
  const LineTexts texts = load_line_texts(run(), request({1, 2, 3}, {false, true, false}, false));
  const std::size_t k1 = texts.find(1), k2 = texts.find(2), k3 = texts.find(3);
  EXPECT_EQ(texts.src(k1), "x2");
  EXPECT_EQ(texts.tgt(k1), "y2");
  EXPECT_EQ(texts.raw(k1), "");  // not asked for
  EXPECT_EQ(texts.raw(k2), "bad line");  // a bad line's always
  EXPECT_EQ(texts.src(k3), "x4");
  EXPECT_EQ(texts.tgt(k3), "y4");
}

TEST_F(LineTextsTest, RawKeepsEveryLineVerbatimAndReverseSwapsTheSides) {
  const LineTexts texts = load_line_texts(run({}, true), request({0, 3}, {false, false}, true));
  EXPECT_EQ(texts.raw(texts.find(0)), "x1\ty1");
  EXPECT_EQ(texts.src(texts.find(0)), "y1");
  EXPECT_EQ(texts.tgt(texts.find(0)), "x1");
  EXPECT_EQ(texts.text(texts.find(3)).src, "y4");
}

TEST_F(LineTextsTest, ReadVisitsTheRequestedLinesInOrder) {
  std::vector<std::pair<std::size_t, std::string>> seen;
  read_line_texts(run(), request({0, 3}, {false, false}, false),
                  [&](std::size_t k, const LineText& text) { seen.emplace_back(k, std::string(text.src)); });
  EXPECT_EQ(seen, (std::vector<std::pair<std::size_t, std::string>>{{0, "x1"}, {1, "x4"}}));
}

TEST_F(LineTextsTest, AChangedInputIsRefusedNamingIt) {
  dir_.write("b.tsv", "bad line\nx4\ty5\n");  // the same size and lines, another content
  const std::string message = test_support::usage_error([&] { load_line_texts(run(), request({0}, {false}, false)); });
  EXPECT_CONTAINS(message, b_);
}

TEST_F(LineTextsTest, AnInputWithOtherLinesIsRefusedNamingIt) {
  dir_.write("a.tsv", "x1\ty1\tx2\ty2\n");  // the same 12 bytes in one line
  const std::string message = test_support::usage_error([&] { load_line_texts(run(), request({0}, {false}, false)); });
  EXPECT_CONTAINS(message, a_);
  EXPECT_CONTAINS(message, "lines");
}

// The run read the bytes it recorded of a file still being appended to (mpi/agreement.hpp).
TEST_F(LineTextsTest, AnInputAppendedToSinceTheRunIsReadUpToItsRecordedSize) {
  dir_.write("b.tsv", "bad line\nx4\ty4\nx5\ty5\n");
  const LineTexts texts = load_line_texts(run(), request({3}, {false}, false));
  EXPECT_EQ(texts.src(texts.find(3)), "x4");
}

TEST_F(LineTextsTest, AMissingInputIsRefusedNamingIt) {
  std::filesystem::remove(a_);
  const std::string message = test_support::usage_error([&] { load_line_texts(run(), request({0}, {false}, false)); });
  EXPECT_CONTAINS(message, "a.tsv");
}

TEST_F(LineTextsTest, InputGivenAgainIsCheckedAgainstTheRecordedFiles) {
  const std::string copy = dir_.write("copy.tsv", "x1\ty1\nx2\ty2\nbad line\nx4\ty4\n");  // one file, not two
  const RunInputs moved = run({copy});
  EXPECT_EQ(moved.paths, (std::vector<std::string>{copy}));
  const std::string message = test_support::usage_error([&] { load_line_texts(moved, request({0}, {false}, false)); });
  EXPECT_FALSE(message.empty());
}

}  // namespace
}  // namespace tdcone::exporting
