// synth writes under a temporary name beside the output and renames it at the
// end: the folder holds only the finished corpus, an existing file is
// replaced whole, and a failed write leaves the old file and nothing else.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "temp_files.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/output_lock.hpp"
#include "tdcone/synth/synth.hpp"

namespace tdcone::synth {
namespace {

namespace fs = std::filesystem;

SynthOptions options(std::uint64_t pairs) {
  SynthOptions o;
  o.pairs = pairs;
  o.vocabulary = 2000;
  return o;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

TEST(SynthOutput, OnlyTheCorpusIsLeftBehind) {
  const test_support::TempDir dir;
  write_corpus(options(300), dir.path("c.tsv"));
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"c.tsv"});
  testing::internal::CaptureStdout();
  write_corpus(options(300), "-");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), read(dir.path("c.tsv")));
}

TEST(SynthOutput, AnExistingFileIsReplacedWhole) {
  const test_support::TempDir dir;
  const std::string path = dir.write("c.tsv", "an old corpus\n");
  write_corpus(options(200), path);
  testing::internal::CaptureStdout();
  write_corpus(options(200), "-");
  EXPECT_EQ(read(path), testing::internal::GetCapturedStdout());
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"c.tsv"});
}

TEST(SynthOutput, AnotherWriterOfTheFileIsRefusedAndTheOldFileKept) {
  const test_support::TempDir dir;
  const std::string path = dir.write("c.tsv", "an old corpus\n");
  const io::OutputLock other_job(path);
  EXPECT_THROW(write_corpus(options(10), path), IoError);
  EXPECT_EQ(read(path), "an old corpus\n");
}

TEST(SynthOutput, AFolderItCannotWriteLeavesTheOldFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes any folder";
  const test_support::TempDir dir;
  const std::string path = dir.write("c.tsv", "an old corpus\n");
  fs::permissions(dir.path(""), fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_THROW(write_corpus(options(10), path), IoError);
  fs::permissions(dir.path(""), fs::perms::owner_all);
  EXPECT_EQ(read(path), "an old corpus\n");
}

}  // namespace
}  // namespace tdcone::synth
