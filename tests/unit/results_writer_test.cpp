// Writing a result (results/writer.hpp) on one rank, read back with
// hdf5::Reader: the run's root attributes and /inputs table, the per-subset
// tables' score columns (a slice of the subsets, the reference columns only
// with a reference) and /labels; the recorded path of an input.
#include "tdcone/results/writer.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tdcone/hdf5/reader.hpp"
#include "temp_files.hpp"

namespace tdcone::results {
namespace {

namespace bmpi = boost::mpi;
namespace fs = std::filesystem;

io::InputFile input(const std::string& path, std::uint64_t size) {
  io::InputFile f;
  f.path = path;
  f.size = size;
  return f;
}

entropy::SubsetScore subset(double tdcone, std::uint64_t n_pairs) {
  entropy::SubsetScore s;
  s.tdcone = tdcone;
  s.cond_entropy = 2 * tdcone;
  s.kl_pq = 3 * tdcone;
  s.kl_pu = 4 * tdcone;
  s.tdcone_rel = 0.75;
  s.n_pairs = n_pairs;
  return s;
}

class Writer : public ::testing::Test {
 protected:
  // Writes a result with `write` on one rank, then opens it.
  template <class F>
  std::unique_ptr<hdf5::Reader> written(F&& write) {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    {
      hdf5::OutputFile file(dir_.path("r.h5"), true, MPI_COMM_SELF, hdf5::Compression::none);
      write(self, file);
      file.commit();
    }
    return std::make_unique<hdf5::Reader>(dir_.path("r.h5"));
  }

  test_support::TempDir dir_{"tdcone_writer_test"};
};

TEST(RecordedPath, IsAbsoluteAndNormalized) {
  const std::string recorded = recorded_path(input("x/../a.tsv", 0));
  EXPECT_EQ(recorded, (fs::current_path() / "a.tsv").string());
  EXPECT_EQ(recorded_path(input("/data//c/./b.tsv", 0)), "/data/c/b.tsv");
}

TEST_F(Writer, RunAttributesRecordCommandConfigCountsAndInputs) {
  text::TokenizedShare share;
  share.file_sizes = {11, 22};  // the bytes read, which win over the sizes looked up
  share.file_lines = {3, 4};
  share.file_fingerprints = {0xabc, 0xdef};
  LineCounts counts;
  counts.lines = 7;
  counts.scored = 5;
  counts.flagged = 2;
  const auto r = written([&](const bmpi::communicator& comm, hdf5::OutputFile& file) {
    write_run_attributes(comm, file, "score", "[corpus]\nlowercase = true\n", {input("/d/a.tsv", 100), input("/d/b.tsv", 200)},
                         share, counts);
  });
  EXPECT_EQ(r->attribute_string("/", "command"), "score");
  EXPECT_EQ(r->attribute_string("/", "config"), "[corpus]\nlowercase = true\n");
  EXPECT_EQ(r->attribute_uint("/", "n_ranks"), 1u);
  EXPECT_EQ(r->attribute_uint("/", "n_lines"), 7u);
  EXPECT_EQ(r->attribute_uint("/", "n_scored"), 5u);
  EXPECT_EQ(r->attribute_uint("/", "n_flagged"), 2u);
  EXPECT_FALSE(r->attribute_string("/", "tdcone_version").empty());
  const std::string created = r->attribute_string("/", "created");
  EXPECT_EQ(created.size(), 20u) << created;  // 2026-12-07T16:00:00Z
  EXPECT_EQ(created.back(), 'Z') << created;
  EXPECT_EQ(r->read_strings("/inputs/path"), (std::vector<std::string>{"/d/a.tsv", "/d/b.tsv"}));
  EXPECT_EQ(r->read_uint("/inputs/size"), (std::vector<std::uint64_t>{11, 22}));
  EXPECT_EQ(r->read_uint("/inputs/lines"), (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(r->read_uint("/inputs/fingerprint"), (std::vector<std::uint64_t>{0xabc, 0xdef}));
}

TEST_F(Writer, WithoutLineCountsInputsHaveSizesOnly) {
  const text::TokenizedShare share;  // no sizes read, no lines counted
  const auto r = written([&](const bmpi::communicator& comm, hdf5::OutputFile& file) {
    write_run_attributes(comm, file, "sweep", "", {input("/d/a.tsv", 100)}, share, LineCounts{});
  });
  EXPECT_EQ(r->read_uint("/inputs/size"), (std::vector<std::uint64_t>{100}));  // the size looked up
  EXPECT_FALSE(r->exists("/inputs/lines"));
  EXPECT_FALSE(r->exists("/inputs/fingerprint"));
}

TEST_F(Writer, SubsetTableWritesTheScoresOfItsSliceOfSubsets) {
  const std::vector<entropy::SubsetScore> subsets{subset(0.1, 10), subset(0.2, 4), subset(0.3, 6), subset(0.4, 1)};
  const auto r = written([&](const bmpi::communicator& comm, hdf5::OutputFile& file) {
    SubsetTable table(comm, file, schema::shards::group);
    table.column(schema::shards::shard, std::vector<std::uint64_t>{0, 1});
    table.scores(schema::shards::scores, subsets, 1, 2, false);
  });
  EXPECT_EQ(r->read_uint("/shards/shard"), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(r->read_double("/shards/tdcone"), (std::vector<double>{0.2, 0.3}));  // subsets 1 and 2
  EXPECT_FALSE(r->exists("/shards/kl_pq"));  // no reference
  EXPECT_FALSE(r->exists("/shards/tdcone_rel"));
  EXPECT_EQ(r->rows("/shards/bleu"), 2u);
  EXPECT_EQ(r->rows("/shards/unigram_precision"), 2u);
}

TEST_F(Writer, SubsetTableWithAReferenceAddsTheKlColumns) {
  const std::vector<entropy::SubsetScore> subsets{subset(0.5, 3)};
  const auto r = written([&](const bmpi::communicator& comm, hdf5::OutputFile& file) {
    SubsetTable table(comm, file, schema::sweep::group);
    table.scores(schema::sweep::scores, subsets, 0, 1, true);
  });
  EXPECT_EQ(r->read_double("/sweep/tdcone"), (std::vector<double>{0.5}));
  EXPECT_EQ(r->read_double("/sweep/kl_pq"), (std::vector<double>{1.5}));
  EXPECT_EQ(r->read_double("/sweep/kl_pu"), (std::vector<double>{2.0}));
  EXPECT_EQ(r->read_double("/sweep/tdcone_rel"), (std::vector<double>{0.75}));
  EXPECT_EQ(r->datasets("/sweep"),
            (std::vector<std::string>{"tdcone", "kl_pq", "kl_pu", "tdcone_rel", "bleu", "unigram_precision"}));
}

TEST_F(Writer, LabelTableHasANamedRowPerLabelSubset) {
  const std::vector<entropy::SubsetScore> subsets{subset(0.9, 9), subset(0.25, 5), subset(0.5, 4)};
  const auto r = written([&](const bmpi::communicator& comm, hdf5::OutputFile& file) {
    write_label_table(comm, file, {"tone=formal", "tone=casual"}, subsets, 1, false);
  });
  EXPECT_EQ(r->read_strings("/labels/label"), (std::vector<std::string>{"tone=formal", "tone=casual"}));
  EXPECT_EQ(r->read_uint("/labels/n_pairs"), (std::vector<std::uint64_t>{5, 4}));
  EXPECT_EQ(r->read_double("/labels/tdcone"), (std::vector<double>{0.25, 0.5}));
  EXPECT_EQ(r->read_double("/labels/cond_entropy"), (std::vector<double>{0.5, 1.0}));  // /labels has cond_entropy
}

}  // namespace
}  // namespace tdcone::results
