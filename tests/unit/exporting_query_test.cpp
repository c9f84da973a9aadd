// tdcone export (exporting/query.hpp) on one rank, of the result of a score
// run of SPEC §3's worked example plus a bad line: the rows chosen (--where,
// --sort-by, --top), the formats (TSV with a header, JSON lines), the input
// text joined (--text, --lines-only), and the options refused.
#include "tdcone/exporting/query.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tdcone/jobs/score_job.hpp"
#include "tdcone/mpi/guard.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::exporting {
namespace {

namespace bmpi = boost::mpi;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
    cells.push_back(line.substr(start, tab - start));
  cells.push_back(line.substr(start));
  return cells;
}

class Export : public ::testing::Test {
 protected:
  static constexpr const char* kCorpus = "a b c\ta d\na b\ta b e\na b\ta\nno second column\n";

  void SetUp() override {
    jobs::ScoreConfig score;
    score.corpus.inputs = {dir_.write("corpus.tsv", kCorpus)};
    score.output.output = dir_.path("score.h5");
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    jobs::run_score_job(self, score, "");
  }

  ExportConfig options() {
    ExportConfig config;
    config.hdf5 = dir_.path("score.h5");
    config.output = dir_.path("out.tsv");
    config.force = true;
    // The run recorded no configuration: the default reader settings (TSV, columns 1 and 2).
    config.read_run_config = [](const std::string&, const std::string&) { return RunSettings{}; };
    return config;
  }
  // The export's text.
  std::string exported(const ExportConfig& config) {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    EXPECT_EQ(run_export_job(self, config), 0);
    std::ifstream in(config.output, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // The error the export stops with.
  mpi::CollectiveError error_of(const ExportConfig& config) {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    try {
      run_export_job(self, config);
    } catch (const mpi::CollectiveError& e) {
      return e;
    }
    ADD_FAILURE() << "the export ran";
    return mpi::CollectiveError("", 0);
  }
  // Column `name` of every data row of a TSV export.
  static std::vector<std::string> column(const std::string& tsv, const std::string& name) {
    const auto lines = lines_of(tsv);
    std::vector<std::string> values;
    if (lines.empty()) return values;
    const auto header = cells_of(lines[0]);
    const auto k = std::find(header.begin(), header.end(), name) - header.begin();
    for (std::size_t i = 1; i < lines.size(); ++i) values.push_back(cells_of(lines[i]).at(k));
    return values;
  }

  test_support::TempDir dir_{"tdcone_export_test"};
};

TEST_F(Export, TsvHasAHeaderThenEveryPairInPairIdOrder) {
  const std::string tsv = exported(options());
  const auto lines = lines_of(tsv);
  ASSERT_EQ(lines.size(), 5u);  // header + 4 lines
  const auto header = cells_of(lines[0]);
  EXPECT_EQ(header[0], "pair_id");
  EXPECT_EQ(header[1], "tdcone");
  EXPECT_EQ(column(tsv, "pair_id"), (std::vector<std::string>{"0", "1", "2", "3"}));
  EXPECT_EQ(column(tsv, "rank"), (std::vector<std::string>{"3", "1", "2", "4"}));
  const auto tdcone = column(tsv, "tdcone");
  EXPECT_NEAR(std::stod(tdcone[0]), (2.0 / 3.0) * std::log(2.0) / std::log(3.0), 1e-15);  // shortest exact text
  EXPECT_EQ(tdcone[1], "0");
  EXPECT_EQ(tdcone[3], "nan");  // the bad line
}

TEST_F(Export, JsonLinesWriteAnObjectPerRowWithNullForNaN) {
  ExportConfig config = options();
  config.to = ExportFormat::jsonl;
  const auto lines = lines_of(exported(config));
  ASSERT_EQ(lines.size(), 4u);  // no header
  EXPECT_TRUE(lines[0].starts_with("{\"pair_id\":0,\"tdcone\":0.4206")) << lines[0];
  EXPECT_TRUE(lines[1].starts_with("{\"pair_id\":1,\"tdcone\":0,")) << lines[1];
  EXPECT_TRUE(lines[3].starts_with("{\"pair_id\":3,\"tdcone\":null,")) << lines[3];
  EXPECT_EQ(lines[3].back(), '}');
}

TEST_F(Export, WhereSortAndTopChooseTheRows) {
  ExportConfig config = options();
  config.where = {"flags==0"};
  config.sort_by = "tdcone";
  config.descending = true;
  EXPECT_EQ(column(exported(config), "pair_id"), (std::vector<std::string>{"0", "1", "2"}));  // ties stay in order
  config.descending = false;
  config.ascending = true;
  config.top = 2;
  EXPECT_EQ(column(exported(config), "pair_id"), (std::vector<std::string>{"1", "2"}));
  config.where = {"tdcone>0.5"};
  EXPECT_EQ(lines_of(exported(config)).size(), 1u);  // the header only
}

TEST_F(Export, SortingPutsNaNLast) {
  ExportConfig config = options();
  config.sort_by = "tdcone";
  config.descending = true;
  EXPECT_EQ(column(exported(config), "pair_id"), (std::vector<std::string>{"0", "1", "2", "3"}));
}

TEST_F(Export, TextJoinsSourceAndTargetAndABadLinesRawText) {
  ExportConfig config = options();
  config.text = true;
  const std::string tsv = exported(config);
  EXPECT_EQ(column(tsv, "src"), (std::vector<std::string>{"a b c", "a b", "a b", ""}));
  EXPECT_EQ(column(tsv, "tgt"), (std::vector<std::string>{"a d", "a b e", "a", ""}));
  EXPECT_EQ(column(tsv, "raw"), (std::vector<std::string>{"", "", "", "no second column"}));
}

TEST_F(Export, LinesOnlyWritesTheKeptLinesVerbatimInInputOrder) {
  ExportConfig config = options();
  config.lines_only = true;
  config.sort_by.clear();
  config.where = {"tdcone==0"};
  EXPECT_EQ(exported(config), "a b\ta b e\na b\ta\n");
}

TEST_F(Export, AChangedInputIsRefusedNamingIt) {
  dir_.write("corpus.tsv", "a b c\ta d\na b\ta b e\na b\ta\nno second colum!\n");  // same size, other bytes
  ExportConfig config = options();
  config.text = true;
  const mpi::CollectiveError e = error_of(config);
  EXPECT_EQ(e.exit_status, 2) << e.what();
  EXPECT_CONTAINS(e.what(), "corpus.tsv");
}

TEST_F(Export, ContradictoryOptionsAreRefusedWithStatus2) {
  ExportConfig config = options();
  config.ascending = true;  // without --sort-by
  mpi::CollectiveError e = error_of(config);
  EXPECT_EQ(e.exit_status, 2);
  EXPECT_CONTAINS(e.what(), "--sort-by");

  config = options();
  config.sort_by = "no_such_column";
  e = error_of(config);
  EXPECT_EQ(e.exit_status, 2);
  EXPECT_CONTAINS(e.what(), "no_such_column");
  EXPECT_CONTAINS(e.what(), "tdcone");  // the columns there are

  config = options();
  config.group = "shards";  // the run had no shards
  e = error_of(config);
  EXPECT_CONTAINS(e.what(), "score.h5");
  EXPECT_CONTAINS(e.what(), "/shards");
}

TEST_F(Export, AnExistingOutputIsKeptWithoutForce) {
  ExportConfig config = options();
  config.force = false;
  dir_.write("out.tsv", "keep me");
  const mpi::CollectiveError e = error_of(config);
  EXPECT_EQ(e.exit_status, 2);
  EXPECT_CONTAINS(e.what(), "out.tsv");
  std::ifstream in(config.output);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "keep me");
}

}  // namespace
}  // namespace tdcone::exporting
