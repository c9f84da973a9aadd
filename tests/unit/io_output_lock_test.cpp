// Files tdcone creates beside an output (io/output_lock.hpp, io/output_guard.hpp):
// never reached through a link, a stale lock or temporary file cleared by the
// next holder, a held lock refusing at once, and the folder's problem named.
#include "tdcone/io/output_lock.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tdcone/core/error.hpp"
#include "tdcone/io/output_guard.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::io {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;
using test_support::io_error_of;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(OutputLock, TakesAndRemovesItsOwnLockFile) {
  TempDir dir;
  const std::string out = dir.path("out.h5");
  {
    const OutputLock lock(out);
    EXPECT_TRUE(lock.held());
    struct stat entry;
    ASSERT_EQ(::lstat((out + ".lock").c_str(), &entry), 0);
    EXPECT_TRUE(S_ISREG(entry.st_mode));
    EXPECT_EQ(read_bytes(out + ".lock").rfind("pid ", 0), 0u);
  }
  EXPECT_FALSE(fs::exists(out + ".lock"));
}

TEST(OutputLock, RefusesALinkedLockAndLeavesItsTargetAlone) {
  TempDir dir;
  const std::string victim = dir.write("victim.txt", "precious\n");
  const std::string out = dir.path("out.h5");
  fs::create_symlink(victim, out + ".lock");
  const std::string message = io_error_of([&] { OutputLock lock(out); });
  EXPECT_NE(message.find(out + ".lock is a symbolic link, which tdcone will not follow"), std::string::npos)
      << message;
  EXPECT_EQ(read_bytes(victim), "precious\n");
  EXPECT_TRUE(fs::is_symlink(out + ".lock"));  // left as it is
}

TEST(OutputLock, RefusesADanglingLinkWithoutCreatingItsTarget) {
  TempDir dir;
  const std::string out = dir.path("out.h5");
  fs::create_symlink(dir.path("planted"), out + ".lock");
  EXPECT_NE(io_error_of([&] { OutputLock lock(out); }), "");
  EXPECT_FALSE(fs::exists(dir.path("planted")));
}

TEST(OutputLock, RefusesALockThatIsNoRegularFile) {
  TempDir dir;
  const std::string out = dir.path("out.h5");
  ASSERT_EQ(::mkfifo((out + ".lock").c_str(), 0600), 0);
  const std::string message = io_error_of([&] { OutputLock lock(out); });
  EXPECT_NE(message.find("is a pipe or FIFO, not a regular file"), std::string::npos) << message;
}

TEST(OutputLock, AStaleLockFileBlocksNobodyAndIsNeverWrittenInto) {
  TempDir dir;
  const std::string out = dir.path("out.h5");
  // A hard link to another file stands for any lock file that is not ours.
  const std::string other = dir.write("other.txt", "pid 1 on gone\n");
  ASSERT_EQ(::link(other.c_str(), (out + ".lock").c_str()), 0);
  {
    const OutputLock lock(out);
    EXPECT_TRUE(lock.held());
    EXPECT_NE(read_bytes(out + ".lock"), "pid 1 on gone\n");  // a new file of its own
  }
  EXPECT_EQ(read_bytes(other), "pid 1 on gone\n");
  EXPECT_FALSE(fs::exists(out + ".lock"));
}

TEST(OutputLock, AHeldLockRefusesAtOnceNamingItsHolder) {
  TempDir dir;
  const std::string out = dir.path("out.h5");
  const OutputLock first(out);
  const std::string message = io_error_of([&] { OutputLock second(out); });
  EXPECT_NE(message.find("another tdcone job is writing " + out + " (lock " + out + ".lock held by pid "),
            std::string::npos)
      << message;
}

TEST(OutputLock, RemovesStalePartialFilesButNeverFollowsALink) {
  TempDir dir;
  const std::string out = dir.path("out.h5");
  dir.write("out.h5.partial-AbC123", "left by a killed job");
  dir.write("out.h5.partial-AbC123.locktest.1", "");
  dir.write("out.h5.partial-notours", "a name of someone else's");
  dir.write("other.h5.partial-AbC123", "another output's");
  const std::string victim = dir.write("victim.txt", "precious\n");
  fs::create_symlink(victim, dir.path("out.h5.partial-Link01"));
  testing::internal::CaptureStderr();
  { const OutputLock lock(out); }
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(fs::exists(dir.path("out.h5.partial-AbC123")));
  EXPECT_FALSE(fs::exists(dir.path("out.h5.partial-AbC123.locktest.1")));
  EXPECT_NE(said.find("removed " + dir.path("out.h5.partial-AbC123") + ","), std::string::npos) << said;
  EXPECT_TRUE(fs::exists(dir.path("out.h5.partial-notours")));
  EXPECT_TRUE(fs::exists(dir.path("other.h5.partial-AbC123")));
  EXPECT_TRUE(fs::is_symlink(dir.path("out.h5.partial-Link01")));
  EXPECT_EQ(read_bytes(victim), "precious\n");
}

TEST(PartialFile, IsANewFileWithTheUmasksPermissions) {
  TempDir dir;
  const mode_t mask = ::umask(022);
  const PartialFile partial = create_partial_file(dir.path("out.tsv"));
  ::umask(mask);
  ASSERT_GE(partial.fd, 0);
  EXPECT_TRUE(is_partial_name(fs::path(partial.path).filename().string(), "out.tsv"));
  struct stat entry;
  ASSERT_EQ(::fstat(partial.fd, &entry), 0);
  EXPECT_EQ(entry.st_mode & 0777, 0644u);
  ::close(partial.fd);
}

TEST(CommitPartial, NeverFollowsOrReplacesALink) {
  TempDir dir;
  const std::string victim = dir.write("victim.txt", "precious\n");
  const std::string out = dir.path("out.tsv");
  fs::create_symlink(victim, out);
  const std::string partial = create_partial(out);
  for (const bool replace : {false, true}) {
    const std::string message = io_error_of([&] { commit_partial(partial, out, replace); });
    EXPECT_NE(message.find(out + " is a symbolic link, which tdcone will not follow"), std::string::npos) << message;
  }
  EXPECT_TRUE(fs::is_symlink(out));
  EXPECT_EQ(read_bytes(victim), "precious\n");
}

TEST(CommitPartial, ReplacesAFileOnlyWhenAsked) {
  TempDir dir;
  const std::string out = dir.write("out.tsv", "old");
  const std::string partial = create_partial(out);
  EXPECT_NE(io_error_of([&] { commit_partial(partial, out, false); }), "");
  EXPECT_EQ(read_bytes(out), "old");
  EXPECT_EQ(io_error_of([&] { commit_partial(partial, out, true); }), "");
  EXPECT_EQ(read_bytes(out), "");
  EXPECT_FALSE(fs::exists(partial));
  const std::string fresh = create_partial(dir.path("new.tsv"));
  EXPECT_EQ(io_error_of([&] { commit_partial(fresh, dir.path("new.tsv"), false); }), "");
  EXPECT_FALSE(fs::exists(fresh));
}

TEST(FolderProblem, NamesAFileOnTheWay) {
  TempDir dir;
  dir.write("afile", "x");
  EXPECT_EQ(folder_problem(dir.path("afile/b.h5")), dir.path("afile") + " is not a directory (it is a file)");
  EXPECT_EQ(folder_problem(dir.path("afile/sub/b.h5")), dir.path("afile") + " is not a directory (it is a file)");
  EXPECT_EQ(folder_problem(dir.path("none/b.h5")), "directory " + dir.path("none") + " does not exist");
  EXPECT_EQ(folder_problem(dir.path("b.h5")), "");
}

TEST(WhyNotARegularFile, NamesLinksAndSpecialFiles) {
  TempDir dir;
  EXPECT_EQ(why_not_a_regular_file(dir.write("plain", "x")), "");
  EXPECT_EQ(why_not_a_regular_file(dir.path("missing")), "");
  fs::create_symlink(dir.path("missing"), dir.path("dangling"));
  EXPECT_EQ(why_not_a_regular_file(dir.path("dangling")),
            dir.path("dangling") + " is a symbolic link, which tdcone will not follow");
  EXPECT_EQ(why_not_a_regular_file(dir.path("")), dir.path("") + " is a directory, not a regular file");
}

}  // namespace
}  // namespace tdcone::io
