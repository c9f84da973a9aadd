// The checkpoint path of a selection job is the job's own: another job is
// refused at once, a checkpoint found at the start is refused unless the job
// resumes from it or replaces it (--force), and only the job's own
// checkpoint is removed at its end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tdcone/core/error.hpp"
#include "tdcone/select/checkpoint_file.hpp"
#include "temp_files.hpp"

namespace tdcone::select {
namespace {

::testing::AssertionResult refused_with(const std::function<void()>& step, const std::string& part) {
  try {
    step();
  } catch (const std::exception& e) {
    const std::string message = e.what();
    if (message.find(part) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "'" << message << "' lacks '" << part << "'";
  }
  return ::testing::AssertionFailure() << "not refused";
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class CheckpointFileTest : public ::testing::Test {
 protected:
  test_support::TempDir dir{"tdcone_checkpoint_file"};
  std::string path = dir.path("run.ckpt");
  Fingerprint ours{1, 2, 3, 0, 0}, theirs{1, 2, 4, 0, 0};
  SelectionState state;

  // A checkpoint that another job left at the path.
  std::string left_by_another_job(const Fingerprint& print) {
    write_checkpoint(path, print, state);
    return read_bytes(path);
  }
};

TEST_F(CheckpointFileTest, AnotherJobOnThePathIsRefusedAtOnce) {
  const CheckpointFile first(path, false, false);
  EXPECT_TRUE(refused_with([&] { CheckpointFile(path, false, false); }, "choose another --checkpoint"));
  EXPECT_TRUE(refused_with([&] { CheckpointFile(path, false, true); }, "held by pid"));  // --force too
}

TEST_F(CheckpointFileTest, AnotherSelectionsCheckpointIsKeptUnlessForced) {
  const std::string bytes = left_by_another_job(theirs);
  {
    CheckpointFile file(path, false, false);
    EXPECT_TRUE(refused_with([&] { file.check_found(ours); }, "another selection (its --available lines differ"));
    file.remove_own();
  }
  EXPECT_EQ(read_bytes(path), bytes);
  {
    CheckpointFile file(path, false, true);  // --force: replaced and, once done, removed
    EXPECT_NO_THROW(file.check_found(ours));
    file.remove_own();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(CheckpointFileTest, ThisSelectionsCheckpointNeedsResumeOrForce) {
  const std::string bytes = left_by_another_job(ours);
  {
    CheckpointFile file(path, false, false);
    EXPECT_TRUE(refused_with([&] { file.check_found(ours); }, "run with --resume to continue it, or with --force"));
  }
  EXPECT_EQ(read_bytes(path), bytes);
  CheckpointFile file(path, true, false);  // --resume: the job's own, removed once done
  file.remove_own();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(CheckpointFileTest, OnlyTheJobsOwnCheckpointIsRemoved) {
  CheckpointFile file(path, false, false);
  file.check_found(ours);
  file.write(ours, state);
  ASSERT_TRUE(std::filesystem::exists(path));
  // Replaced behind the job's back (by a job that takes no lock): not the job's own any more.
  const std::string other = dir.path("other.ckpt");
  write_checkpoint(other, theirs, state);
  std::filesystem::rename(other, path);
  file.remove_own();
  EXPECT_TRUE(std::filesystem::exists(path));
  file.write(ours, state);
  file.remove_own();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(CheckpointFileTest, AFolderThatIsAFileIsNamedAtTheStart) {
  const std::string file = dir.write("afile", "x");
  EXPECT_TRUE(refused_with([&] { CheckpointFile(file + "/run.ckpt", false, false); }, "afile is not a directory"));
  // Nothing is left beside the path: no lock, no probe.
  const CheckpointFile checked(path, false, false);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path("")))
    EXPECT_EQ(entry.path().filename().string().find("partial"), std::string::npos) << entry.path();
}

}  // namespace
}  // namespace tdcone::select
