// What the corpus jobs share (jobs/corpus_job.hpp), on one rank: the corpus
// and reference read, the score engine run on them (SPEC §3's worked
// example, its TD-CONE by hand) and /corpus written from its scores.
#include "tdcone/jobs/corpus_job.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tdcone/hdf5/reader.hpp"
#include "tdcone/mpi/guard.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::jobs {
namespace {

namespace bmpi = boost::mpi;

// H = (ln 3 + ln 6 / 2 + 5/2 ln 2) / 8 over |V_y| = 4 (see jobs_score_job_test.cpp).
const double kCorpusH = (std::log(3.0) + 0.5 * std::log(6.0) + 2.5 * std::log(2.0)) / 8;

class CorpusJobTest : public ::testing::Test {
 protected:
  CorpusJob read(const std::string& reference = "") {
    config::CorpusConfig corpus;
    corpus.inputs = {dir_.write("a.tsv", "a b c\ta d\n"), dir_.write("b.tsv", "a b\ta b e\na b\ta\n")};
    config::ReferenceConfig ref;
    ref.reference = reference;
    output_.output = dir_.path("out.h5");
    return read_corpus_job(self_, corpus, ref, output_);
  }

  bmpi::communicator self_{MPI_COMM_SELF, bmpi::comm_attach};
  config::OutputConfig output_;
  test_support::TempDir dir_{"tdcone_corpus_job_test"};
};

TEST_F(CorpusJobTest, ReadsEveryFileIntoOneShare) {
  const CorpusJob job = read();
  ASSERT_EQ(job.files.size(), 2u);
  EXPECT_EQ(job.files[0].path, dir_.path("a.tsv"));
  EXPECT_TRUE(job.tgt_files.empty());
  EXPECT_EQ(job.recorded_files().size(), 2u);
  EXPECT_EQ(job.share.size(), 3u);
  EXPECT_EQ(job.counts.lines, 3u);
  EXPECT_EQ(job.counts.scored, 3u);
  EXPECT_EQ(job.share.file_lines, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_FALSE(job.reference.has_value());
  EXPECT_FALSE(job.duplicates.has_value());
}

TEST_F(CorpusJobTest, AReferenceIsReadWithTheCorpusOptions) {
  const CorpusJob job = read(dir_.write("ref.tsv", "a b c\ta d\nx\ty\n"));
  ASSERT_TRUE(job.reference.has_value());
  EXPECT_EQ(job.reference->size(), 2u);
}

TEST_F(CorpusJobTest, ScoresTheWorkedExample) {
  CorpusJob job = read();
  const JobScores scores = score_corpus_job(self_, job, {}, {}, entropy::corpus_groups(job.share));
  ASSERT_FALSE(scores.subsets.empty());
  EXPECT_NEAR(scores.subsets[0].cond_entropy, kCorpusH, 1e-12);
  EXPECT_NEAR(scores.subsets[0].tdcone, kCorpusH / std::log(5.0), 1e-12);
  EXPECT_EQ(scores.input_types, 3u);  // a b c
  ASSERT_EQ(scores.pair_tdcone.size(), 3u);
  EXPECT_NEAR(scores.pair_tdcone[0], (2.0 / 3.0) * std::log(2.0) / std::log(3.0), 1e-12);
  EXPECT_EQ(scores.pair_rank, (std::vector<std::uint64_t>{3, 1, 2}));
  EXPECT_GT(scores.memory_budget, 0u);
  EXPECT_EQ(scores.peak_rss.size(), 1u);  // one per rank
}

TEST_F(CorpusJobTest, CorpusGroupHoldsTheCorpusScores) {
  CorpusJob job = read();
  const JobScores scores = score_corpus_job(self_, job, {}, {}, entropy::corpus_groups(job.share));
  {
    hdf5::OutputFile file(dir_.path("corpus.h5"), true, MPI_COMM_SELF, hdf5::Compression::none);
    write_corpus_group(file, scores, false);
    file.commit();
  }
  const hdf5::Reader result(dir_.path("corpus.h5"));
  EXPECT_NEAR(result.attribute_double("/corpus", "tdcone"), kCorpusH / std::log(5.0), 1e-12);
  EXPECT_EQ(result.attribute_uint("/corpus", "n_pairs"), 3u);
  EXPECT_EQ(result.attribute_uint("/corpus", "vx"), 3u);
  EXPECT_EQ(result.attribute_uint("/corpus", "vy"), 4u);
  const std::vector<std::string> names = result.attributes("/corpus");
  EXPECT_EQ(std::find(names.begin(), names.end(), "tdcone_rel"), names.end());  // no reference
}

TEST_F(CorpusJobTest, AMissingInputStopsTheJobNamingIt) {
  config::CorpusConfig corpus;
  corpus.inputs = {dir_.path("missing.tsv")};
  output_.output = dir_.path("out.h5");
  try {
    read_corpus_job(self_, corpus, {}, output_);
    FAIL() << "a missing input was read";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_NE(e.exit_status, 0);
    EXPECT_CONTAINS(e.what(), "missing.tsv");
  }
}

TEST_F(CorpusJobTest, AnExistingOutputIsRefusedBeforeReading) {
  dir_.write("out.h5", "x");
  try {
    read();
    FAIL() << "an existing output was accepted";
  } catch (const mpi::CollectiveError& e) {
    EXPECT_EQ(e.exit_status, 2);
    EXPECT_CONTAINS(e.what(), "out.h5");
  }
}

}  // namespace
}  // namespace tdcone::jobs
