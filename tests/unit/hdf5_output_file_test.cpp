// OutputFile in one process: the check of its target, the partial file and
// the commit, and error messages that name the object and the file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <mpi.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <functional>
#include <vector>

#include "h5_test_files.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/hdf5/reader.hpp"

namespace {

using namespace tdcone::h5_test;
using tdcone::IoError;
using tdcone::UsageError;
using tdcone::hdf5::check_output_target;
using tdcone::hdf5::Compression;
using tdcone::hdf5::OutputFile;
using tdcone::hdf5::Reader;

using H5OutputTarget = H5Files;

TEST_F(H5OutputTarget, NewFileInExistingDirectoryIsFine) {
  EXPECT_NO_THROW(check_output_target(path("new.h5"), false));
  EXPECT_NO_THROW(check_output_target(path("new.h5"), true));
}

TEST_F(H5OutputTarget, ExistingFileNeedsForce) {
  const std::string file = path("old.h5");
  std::ofstream(file) << "x";
  try {
    check_output_target(file, false);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "output file exists: " + file + " (use --force to overwrite)");
  }
  EXPECT_NO_THROW(check_output_target(file, true));
}

TEST_F(H5OutputTarget, MissingOrNonDirectoryParentIsRejected) {
  EXPECT_THROW(check_output_target(path("no/such/dir/out.h5"), false), UsageError);
  EXPECT_THROW(check_output_target(path("no/such/dir/out.h5"), true), UsageError);
  std::ofstream(path("plain")) << "x";
  EXPECT_THROW(check_output_target(path("plain/out.h5"), true), UsageError);
  fs::create_directory(path("adir"));
  EXPECT_THROW(check_output_target(path("adir"), true), UsageError);  // a directory is not an output file
}

TEST_F(H5OutputTarget, ForceReplacesRegularFilesOnly) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_THROW(check_output_target(path("fifo"), true), UsageError);
  EXPECT_THROW(check_output_target("/dev/null", true), UsageError);  // a device node stays one
  fs::create_symlink("/dev/null", path("to-device"));
  EXPECT_THROW(check_output_target(path("to-device"), true), UsageError);
  try {
    check_output_target("/dev/full", true);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "output file is not a regular file: /dev/full (--force replaces regular files only)");
  }
}

TEST_F(H5OutputTarget, UnwritableDirectoryIsRejected) {
  // No one, root included, creates a file under a regular file.
  std::ofstream(path("file")) << "x";
  EXPECT_THROW(check_output_target(path("file/sub/out.h5"), false), UsageError);
  if (::geteuid() == 0) return;  // root writes into any directory: the permission check below is for the others
  fs::create_directory(path("ro"));
  fs::permissions(path("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_THROW(check_output_target(path("ro/out.h5"), false), UsageError);
  fs::permissions(path("ro"), fs::perms::owner_all);
}

// ---------------------------------------------------------------------------

using H5Lifecycle = H5Files;

TEST_F(H5Lifecycle, WritesToPartialAndCommitRenames) {
  const std::string file = path("out.h5");
  OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
  out.set_attribute("/", "command", std::string("score"));
  EXPECT_TRUE(has_partial(file));
  EXPECT_FALSE(fs::exists(file));
  out.commit();
  EXPECT_TRUE(fs::exists(file));
  EXPECT_FALSE(has_partial(file));
  EXPECT_NO_THROW(out.commit());  // a second commit does nothing
  EXPECT_THROW(out.create_group("/late"), IoError);
  EXPECT_EQ(Reader(file).attribute_string("/", "command"), "score");
}

TEST_F(H5Lifecycle, DestroyedWithoutCommitLeavesNothing) {
  const std::string file = path("out.h5");
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::zstd);
    const std::vector<double> values = {1, 2, 3};
    out.write_column("/values", std::span<const double>(values), 0, 3);
    EXPECT_TRUE(has_partial(file));
  }
  EXPECT_FALSE(has_partial(file));
  EXPECT_FALSE(fs::exists(file));
}

TEST_F(H5Lifecycle, ExistingFileIsKeptWithoutForceAndReplacedWithForce) {
  const std::string file = path("out.h5");
  std::ofstream(file) << "previous";
  EXPECT_THROW(OutputFile(file, false, MPI_COMM_WORLD, Compression::none), UsageError);
  EXPECT_FALSE(has_partial(file));
  {
    OutputFile out(file, true, MPI_COMM_WORLD, Compression::none);
    out.set_attribute("/", "run", std::uint64_t{2});
    out.commit();
  }
  EXPECT_EQ(Reader(file).attribute_uint("/", "run"), 2u);
}

TEST_F(H5Lifecycle, FileAppearingDuringTheRunIsNotOverwrittenWithoutForce) {
  const std::string file = path("out.h5");
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    std::ofstream(file) << "someone else's";
    EXPECT_THROW(out.commit(), UsageError);
  }
  EXPECT_FALSE(has_partial(file));
  std::ifstream kept(file);
  std::string text;
  std::getline(kept, text);
  EXPECT_EQ(text, "someone else's");
}

// ---------------------------------------------------------------------------

using H5Errors = H5Files;

std::string message_of(const std::function<void()>& step) {
  try {
    step();
  } catch (const IoError& e) {
    return e.what();
  }
  return "(no IoError)";
}

TEST_F(H5Errors, NameTheObjectAndTheFileAndPrintNoHdf5Stack) {
  const std::string file = path("err.h5");
  const std::string partial = file + ".partial";
  ::testing::internal::CaptureStderr();
  {
    OutputFile out(file, false, MPI_COMM_WORLD, Compression::deflate);
    const std::vector<double> values = {1, 2};
    std::string m = message_of([&] { out.write_column("/nogroup/x", std::span<const double>(values), 0, 2); });
    EXPECT_NE(m.find("/nogroup/x"), std::string::npos) << m;
    EXPECT_NE(m.find(partial), std::string::npos) << m;
    m = message_of([&] { out.set_attribute("/missing", "a", 1.0); });
    EXPECT_NE(m.find("/missing"), std::string::npos) << m;
    EXPECT_NE(m.find(partial), std::string::npos) << m;
    out.create_group("/g");
    m = message_of([&] { out.create_group("/g"); });  // exists already
    EXPECT_NE(m.find("group /g"), std::string::npos) << m;
    m = message_of([&] { out.write_column("/g/y", std::span<const double>(values), 1, 2); });  // rows past the end
    EXPECT_NE(m.find("/g/y"), std::string::npos) << m;
    out.commit();
  }
  const Reader in(file);
  std::string m = message_of([&] { (void)in.read_uint("/g/none"); });
  EXPECT_NE(m.find("/g/none"), std::string::npos) << m;
  EXPECT_NE(m.find(file), std::string::npos) << m;
  m = message_of([&] { (void)in.attribute_text("/g", "none"); });
  EXPECT_NE(m.find("'none' of /g"), std::string::npos) << m;
  m = message_of([&] { Reader missing(path("missing.h5")); });
  EXPECT_NE(m.find(path("missing.h5")), std::string::npos) << m;
  std::ofstream(path("text.h5")) << "not hdf5";
  m = message_of([&] { Reader garbage(path("text.h5")); });
  EXPECT_NE(m.find(path("text.h5")), std::string::npos) << m;
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed.find("HDF5-DIAG"), std::string::npos) << printed;
}

}  // namespace
