// The failure protocol of OutputFile (src/hdf5/failure_protocol.cpp) on 1-4
// ranks: an error on one rank reaches the others at their next step with
// that rank's message and status, and an error anywhere drops the partial
// file on every rank, after which the ranks write the next file as usual.
#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "shared_dir.hpp"
#include "world.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/mpi/guard.hpp"

namespace {

namespace fs = std::filesystem;
using tdcone::hdf5::Compression;
using tdcone::hdf5::OutputFile;
using tdcone::test_support::SharedTempDir;

using tdcone::test_support::world_rank;
using tdcone::test_support::world_size;
using tdcone::test_support::all_agree;

// A temporary file of `file`'s writer: `file` + ".partial-XXXXXX".
bool has_partial(const std::string& file) {
  const fs::path target(file);
  for (const auto& entry : fs::directory_iterator(target.parent_path()))
    if (entry.path().filename().string().starts_with(target.filename().string() + ".partial")) return true;
  return false;
}

// What a step threw on this rank: its kind, its exit status (CollectiveError) and its message.
struct Thrown {
  std::string kind;
  int status = 0;
  std::string message;
};

template <class Step>
Thrown thrown_by(Step&& step) {
  try {
    step();
  } catch (const tdcone::UsageError& e) {
    return {"UsageError", 2, e.what()};
  } catch (const tdcone::IoError& e) {
    return {"IoError", 1, e.what()};
  } catch (const tdcone::mpi::CollectiveError& e) {
    return {"CollectiveError", e.exit_status, e.what()};
  }
  return {"nothing", 0, ""};
}

// An error on one rank between two calls (not inside HDF5): the others learn
// it at their next call instead of waiting in HDF5 for the failed rank, all
// close the file, and the failed rank's message is the one reported.
TEST(H5FailureProtocol, AnErrorOnOneRankBetweenCallsStopsEveryRank) {
  const SharedTempDir scratch("h5par_local_error");
  const std::string file = (scratch.path() / "out.h5").string();
  const int failing = world_size() - 1;
  std::string message;
  int status = 0;
  try {
    tdcone::mpi::collective_step(boost::mpi::communicator(), [&] {
      OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
      out.create_group("/g");
      if (world_rank() == failing) throw tdcone::IoError("a local failure");
      out.set_attribute("/g", "a", 1.0);
      out.write_column("/g/x", std::span<const double>(std::vector<double>{1.0}), world_rank(), world_size());
      out.commit();
    });
  } catch (const tdcone::mpi::CollectiveError& e) {
    message = e.what();
    status = e.exit_status;
  }
  EXPECT_EQ(status, 1);
  EXPECT_EQ(message, world_size() == 1 ? "a local failure" : "rank " + std::to_string(failing) + ": a local failure");
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_TRUE(all_agree(!has_partial(file) && !fs::exists(file)));
}

// Rank 0 alone checks the target: its UsageError (status 2) becomes every rank's.
TEST(H5FailureProtocol, ATargetRankZeroRefusesStopsEveryRankWithStatus2) {
  const SharedTempDir scratch("h5par_target");
  const std::string file = (scratch.path() / "out.h5").string();
  if (world_rank() == 0) std::ofstream(file) << "a result of another run";
  MPI_Barrier(MPI_COMM_WORLD);
  const Thrown t = thrown_by([&] { OutputFile out(file, false, MPI_COMM_WORLD, Compression::none); });
  const std::string refusal = "output file exists: " + file + " (use --force to overwrite)";
  if (world_rank() == 0) {
    EXPECT_EQ(t.kind, "UsageError");
    EXPECT_EQ(t.message, refusal);
  } else {
    EXPECT_EQ(t.kind, "CollectiveError");
    EXPECT_EQ(t.status, 2);
    EXPECT_EQ(t.message, "rank 0: " + refusal);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_TRUE(all_agree(!has_partial(file) && fs::file_size(file) == std::string("a result of another run").size()));
}

// A step every rank fails is reported by rank 0 as its own error and by the
// others with the same message, unprefixed, status 1.
TEST(H5FailureProtocol, AFileAlreadyCommittedRefusesEveryRanksNextStep) {
  const SharedTempDir scratch("h5par_committed");
  const std::string file = (scratch.path() / "out.h5").string();
  OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
  out.set_attribute("/", "run", std::uint64_t{1});
  out.commit();
  const Thrown t = thrown_by([&] { out.create_group("/late"); });
  EXPECT_EQ(t.kind, world_rank() == 0 ? "IoError" : "CollectiveError");
  EXPECT_EQ(t.status, 1);
  EXPECT_EQ(t.message, "cannot write group /late: " + file + " is already committed or closed");
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_TRUE(all_agree(fs::exists(file) && !has_partial(file)));
  EXPECT_EQ(tdcone::hdf5::Reader(file).attribute_uint("/", "run"), 1u);
}

// An HDF5 error inside a collective call, on every rank (a dataset in a group
// that is not there): each rank throws its own, the file is abandoned
// together and dropped, and the ranks then write the next file as usual.
TEST(H5FailureProtocol, AnErrorOnEveryRankDropsThePartialFileAndTheRanksGoOn) {
  const SharedTempDir scratch("h5par_abandon");
  const std::string file = (scratch.path() / "out.h5").string();
  const std::vector<double> one = {static_cast<double>(world_rank())};
  const Thrown t = thrown_by([&] {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::zstd);
    out.create_group("/g");
    out.write_column("/nogroup/x", std::span<const double>(one), world_rank(), world_size());
    out.commit();
  });
  EXPECT_EQ(t.kind, "IoError");
  EXPECT_NE(t.message.find("/nogroup/x"), std::string::npos) << t.message;
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_TRUE(all_agree(!has_partial(file) && !fs::exists(file)));

  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::zstd);
    out.create_group("/g");
    out.write_column("/g/x", std::span<const double>(one), world_rank(), world_size());
    out.commit();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::vector<double> expected(world_size());
  for (int r = 0; r < world_size(); ++r) expected[r] = r;
  EXPECT_EQ(tdcone::hdf5::Reader(file).read_double("/g/x"), expected);
}

}  // namespace
