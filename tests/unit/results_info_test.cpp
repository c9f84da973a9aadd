// tdcone info (results/info.hpp) of the result of a score run on one rank:
// the run's attributes, inputs and configuration, then each group with its
// rows, columns and their types; a file that is not a tdcone result refused.
#include "tdcone/results/info.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/jobs/score_job.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::results {
namespace {

namespace bmpi = boost::mpi;

// The line of `text` that starts with `start` (after its indentation), or "".
std::string line_starting(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, start.size(), start) == 0) return line;
  }
  return "";
}

// The words of a line.
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

class Info : public ::testing::Test {
 protected:
  void SetUp() override {
    jobs::ScoreConfig score;
    score.corpus.inputs = {dir_.write("corpus.tsv", "a b c\ta d\na b\ta b e\na b\ta\n")};
    score.output.output = dir_.path("score.h5");
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    jobs::run_score_job(self, score, "input = [ 'corpus.tsv' ]\nshards = 0\n");
  }
  std::string info(const std::string& path) {
    std::ostringstream out;
    print_info(out, path);
    return out.str();
  }

  test_support::TempDir dir_{"tdcone_info_test"};
};

TEST_F(Info, SaysWhatRunWroteTheResult) {
  const std::string text = info(dir_.path("score.h5"));
  EXPECT_CONTAINS(line_starting(text, dir_.path("score.h5")), "tdcone score");
  EXPECT_EQ(words(line_starting(text, "command")), (std::vector<std::string>{"command", "score"}));
  EXPECT_EQ(words(line_starting(text, "n_lines")), (std::vector<std::string>{"n_lines", "3"}));
  EXPECT_EQ(words(line_starting(text, "n_flagged")), (std::vector<std::string>{"n_flagged", "0"}));
  EXPECT_EQ(words(line_starting(text, "n_ranks")), (std::vector<std::string>{"n_ranks", "1"}));
}

TEST_F(Info, ListsTheInputsWithSizeAndLinesAndTheConfiguration) {
  const std::string text = info(dir_.path("score.h5"));
  const std::string input = line_starting(text, dir_.path("corpus.tsv"));
  EXPECT_CONTAINS(input, "26 bytes");
  EXPECT_CONTAINS(input, "3 lines");
  EXPECT_CONTAINS(input, "fingerprint");
  EXPECT_EQ(words(line_starting(text, "shards =")), (std::vector<std::string>{"shards", "=", "0"}));
}

TEST_F(Info, ShowsEveryGroupWithItsRowsColumnsAndAttributes) {
  const std::string text = info(dir_.path("score.h5"));
  EXPECT_CONTAINS(line_starting(text, "/pairs"), "3 rows");
  EXPECT_EQ(words(line_starting(text, "tdcone ")), (std::vector<std::string>{"tdcone", "0.28949237074364464"}))
      << "the /corpus attribute, full precision";
  EXPECT_EQ(words(line_starting(text, "flags")), (std::vector<std::string>{"flags", "u8"}));
  EXPECT_EQ(words(line_starting(text, "pair_id")), (std::vector<std::string>{"pair_id", "u64"}));
  EXPECT_EQ(words(line_starting(text, "nnz")), (std::vector<std::string>{"nnz", "7"}));
}

TEST_F(Info, AnHdf5FileThatIsNoTdconeResultIsRefusedNamingIt) {
  {
    hdf5::OutputFile file(dir_.path("other.h5"), true, MPI_COMM_SELF, hdf5::Compression::none);
    file.create_group("/data");
    file.commit();
  }
  const std::string message = test_support::io_error_of([&] { info(dir_.path("other.h5")); });
  EXPECT_CONTAINS(message, "other.h5");
  EXPECT_CONTAINS(message, "tdcone_version");
}

TEST_F(Info, AMissingFileIsNamed) {
  const std::string message = test_support::io_error_of([&] { info(dir_.path("missing.h5")); });
  EXPECT_CONTAINS(message, "missing.h5");
}

}  // namespace
}  // namespace tdcone::results
