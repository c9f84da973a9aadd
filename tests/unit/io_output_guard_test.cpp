// Where an output may go (io/output_guard.hpp): never over an input (the
// same file by any path, or the same path before it exists), never through
// a link, only into a folder that exists and is writable.
#include "tdcone/io/output_guard.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::io {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;

class OutputGuard : public ::testing::Test {
 protected:
  std::string refusal(const std::string& output, const std::vector<std::string>& patterns) {
    try {
      refuse_writing_over_inputs("--output", output, {{"the corpus given with --input", patterns}});
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  }

  TempDir dir_{"tdcone_output_guard_test"};
};

TEST_F(OutputGuard, AnOutputThatIsAnInputIsRefusedNamingOptionAndInput) {
  const std::string input = dir_.write("in.tsv", "a\tb\n");
  const std::string message = refusal(input, {input});
  EXPECT_CONTAINS(message, "--output");
  EXPECT_CONTAINS(message, input);
  EXPECT_CONTAINS(message, "the corpus given with --input");
}

TEST_F(OutputGuard, TheSameFileByAnotherPathIsRefused) {
  const std::string input = dir_.write("in.tsv", "a\tb\n");
  ASSERT_EQ(::link(input.c_str(), dir_.path("hard.tsv").c_str()), 0);
  fs::create_symlink(input, dir_.path("soft.tsv"));
  EXPECT_CONTAINS(refusal(dir_.path("hard.tsv"), {input}), "in.tsv");
  EXPECT_CONTAINS(refusal(input, {dir_.path("soft.tsv")}), "soft.tsv");
  EXPECT_CONTAINS(refusal(dir_.path("sub/../in.tsv"), {input}), "in.tsv");  // another spelling
  EXPECT_CONTAINS(refusal(input, {dir_.path("*.tsv")}), "in.tsv");          // a glob that matches it
}

TEST_F(OutputGuard, OtherFilesStandardOutputAndMissingInputsPass) {
  const std::string input = dir_.write("in.tsv", "a\tb\n");
  EXPECT_EQ(refusal(dir_.path("out.h5"), {input}), "");
  EXPECT_EQ(refusal(dir_.write("other.h5", "x"), {input}), "");
  EXPECT_EQ(refusal("-", {input}), "");
  EXPECT_EQ(refusal(dir_.path("out.h5"), {dir_.path("missing.tsv")}), "");  // its reader reports it
}

TEST_F(OutputGuard, WhyNotARegularFileNamesLinksAndDirectories) {
  EXPECT_EQ(why_not_a_regular_file(dir_.path("nothing.h5")), "");
  EXPECT_EQ(why_not_a_regular_file(dir_.write("file.h5", "x")), "");
  fs::create_symlink(dir_.path("file.h5"), dir_.path("link.h5"));
  const std::string link = why_not_a_regular_file(dir_.path("link.h5"));
  EXPECT_TRUE(link.starts_with(dir_.path("link.h5"))) << link;
  EXPECT_CONTAINS(link, "symbolic link");
  fs::create_directory(dir_.path("dir.h5"));
  EXPECT_CONTAINS(why_not_a_regular_file(dir_.path("dir.h5")), "a directory");
  ASSERT_EQ(::mkfifo(dir_.path("fifo.h5").c_str(), 0600), 0);
  EXPECT_CONTAINS(why_not_a_regular_file(dir_.path("fifo.h5")), "FIFO");
}

TEST_F(OutputGuard, FolderProblemNamesAMissingFolderOrAFileOnTheWay) {
  EXPECT_EQ(folder_problem(dir_.path("out.h5")), "");
  const std::string missing = folder_problem(dir_.path("no/dir/out.h5"));
  EXPECT_CONTAINS(missing, dir_.path("no/dir"));
  EXPECT_CONTAINS(missing, "does not exist");
  dir_.write("afile", "x");
  const std::string file = folder_problem(dir_.path("afile/deeper/out.h5"));
  EXPECT_CONTAINS(file, dir_.path("afile"));
  EXPECT_CONTAINS(file, "not a directory");
  EXPECT_CONTAINS(file, "a file");
}

}  // namespace
}  // namespace tdcone::io
