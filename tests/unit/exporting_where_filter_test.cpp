// --where with --where-result (exporting/where_filter.hpp) on one rank: the
// options checked before any reading, then which lines of a corpus pass
// conditions on the /pairs rows of a score result of that same corpus; a
// result of another corpus, or a column it lacks, refused by name.
#include "tdcone/exporting/where_filter.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/stat.h>

#include <boost/mpi/communicator.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "tdcone/jobs/corpus_job.hpp"
#include "tdcone/jobs/score_job.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::exporting {
namespace {

namespace bmpi = boost::mpi;

// SPEC §3's worked example and a bad line: pair TD-CONE 0.42, 0, 0 and NaN.
constexpr const char* kCorpus = "a b c\ta d\na b\ta b e\na b\ta\nno second column\n";

class WhereFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    corpus_ = dir_.write("corpus.tsv", kCorpus);
    jobs::ScoreConfig score;
    score.corpus.inputs = {corpus_};
    score.output.output = dir_.path("score.h5");
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    jobs::run_score_job(self, score, "");
  }
  // The corpus at `path` as a job reads it now.
  text::TokenizedShare share_of(const std::string& path) {
    config::CorpusConfig corpus;
    corpus.inputs = {path};
    config::OutputConfig output;
    output.output = dir_.path("unused.h5");
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    return jobs::read_corpus_job(self, corpus, {}, output).share;
  }
  std::vector<std::uint8_t> passes(std::vector<std::string> where, const std::string& corpus) {
    const WhereFilter filter{std::move(where), dir_.path("score.h5")};
    return passes_where(filter, share_of(corpus), [](const std::string&, const std::string&) { return RunSettings{}; });
  }

  test_support::TempDir dir_{"tdcone_where_filter_test"};
  std::string corpus_;
};

TEST_F(WhereFilterTest, LinesPassWhenTheirPairsRowPassesEveryCondition) {
  EXPECT_EQ(passes({"tdcone==0"}, corpus_), (std::vector<std::uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(passes({"flags==1"}, corpus_), (std::vector<std::uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(passes({"tdcone==0", "rank>=2"}, corpus_), (std::vector<std::uint8_t>{0, 0, 1, 0}));
}

TEST_F(WhereFilterTest, AResultOfAnotherCorpusIsRefused) {
  const std::string other = dir_.write("other.tsv", "a b c\ta d\na b\ta b e\na b\tb\nno second column\n");
  const std::string message = test_support::usage_error([&] { passes({"tdcone==0"}, other); });
  EXPECT_CONTAINS(message, "--where-result");
  EXPECT_CONTAINS(message, "score.h5");
}

TEST_F(WhereFilterTest, AColumnTheResultLacksIsNamedWithTheColumnsItHas) {
  const std::string message = test_support::usage_error([&] { passes({"score>0.5"}, corpus_); });
  EXPECT_CONTAINS(message, "'score'");
  EXPECT_CONTAINS(message, "tdcone");
}

TEST(CheckWhereOptions, WhereAndWhereResultGoTogether) {
  EXPECT_CONTAINS(test_support::usage_error([] { check_where_options({{"tdcone>0"}, ""}); }), "--where-result");
  EXPECT_CONTAINS(test_support::usage_error([] { check_where_options({{}, "/tmp/x.h5"}); }), "--where");
  EXPECT_NO_THROW(check_where_options({}));
  EXPECT_FALSE(WhereFilter{}.given());
}

TEST(CheckWhereOptions, TheResultMustBeAnExistingRegularFile) {
  test_support::TempDir dir("tdcone_where_filter_test");
  const std::string missing = test_support::usage_error([&] { check_where_options({{"tdcone>0"}, dir.path("no.h5")}); });
  EXPECT_CONTAINS(missing, "--where-result");
  EXPECT_CONTAINS(missing, dir.path("no.h5"));
  ASSERT_EQ(::mkfifo(dir.path("fifo.h5").c_str(), 0600), 0);
  const std::string fifo = test_support::usage_error([&] { check_result_path(Option::ranking, dir.path("fifo.h5")); });
  EXPECT_CONTAINS(fifo, "--ranking");
  EXPECT_CONTAINS(fifo, dir.path("fifo.h5"));
  EXPECT_NO_THROW(check_result_path(Option::ranking, dir.write("r.h5", "x")));  // only looked up, not read
}

TEST(CheckWhereOptions, AMalformedConditionIsRefusedBeforeAnyReading) {
  test_support::TempDir dir("tdcone_where_filter_test");
  const std::string result = dir.write("r.h5", "not read");
  EXPECT_CONTAINS(test_support::usage_error([&] { check_where_options({{"tdcone"}, result}); }), "tdcone");
  EXPECT_NO_THROW(check_where_options({{"tdcone>0.5"}, result}));
}

}  // namespace
}  // namespace tdcone::exporting
