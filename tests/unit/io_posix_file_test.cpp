// The read-only file of the readers (io/posix_file.hpp): reads at offsets
// and front to back, short only at the end of the file (also of a FIFO that
// delivers its bytes in pieces), errors that name the file, and the kind of
// a file for messages.
#include "../../src/io/posix_file.hpp"  // a private header of src/io

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::io {
namespace {

using test_support::TempDir;

TEST(PosixFile, ReadAtReadsAtTheOffsetAndShortOnlyAtTheEnd) {
  TempDir dir("tdcone_posix_file_test");
  PosixFile file(dir.write("f.txt", "0123456789"));
  char buffer[8] = {};
  EXPECT_EQ(file.read_at(buffer, 4, 3), 4u);
  EXPECT_EQ(std::string(buffer, 4), "3456");
  EXPECT_EQ(file.read_at(buffer, 8, 7), 3u);  // 7, 8, 9: the end
  EXPECT_EQ(std::string(buffer, 3), "789");
  EXPECT_EQ(file.read_at(buffer, 8, 10), 0u);
  EXPECT_EQ(file.read_at(buffer, 8, 100), 0u);  // past the end
}

TEST(PosixFile, ReadGoesFrontToBackFromWhereItLeftOff) {
  TempDir dir("tdcone_posix_file_test");
  PosixFile file(dir.write("f.txt", "abcdefg"));
  char buffer[8] = {};
  EXPECT_EQ(file.read(buffer, 3), 3u);
  EXPECT_EQ(std::string(buffer, 3), "abc");
  EXPECT_EQ(file.read_at(buffer, 2, 0), 2u);  // an offset read does not move the position
  EXPECT_EQ(file.read(buffer, 8), 4u);
  EXPECT_EQ(std::string(buffer, 4), "defg");
  EXPECT_EQ(file.read(buffer, 8), 0u);
}

TEST(PosixFile, ReadFillsTheBufferFromAFifoUntilItsEnd) {
  TempDir dir("tdcone_posix_file_test");
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string bytes(200000, 'x');  // more than a pipe holds: several reads
  test_support::FifoFeeder feeder(fifo, bytes);
  PosixFile file(fifo);
  std::string got(300000, '\0');
  EXPECT_EQ(file.read(got.data(), got.size()), bytes.size());
  EXPECT_TRUE(feeder.delivered());
}

TEST(PosixFile, AFileThatCannotBeOpenedIsNamed) {
  TempDir dir("tdcone_posix_file_test");
  const std::string missing = dir.path("missing.tsv");
  const std::string message = test_support::io_error_of([&] { PosixFile file(missing); });
  EXPECT_CONTAINS(message, missing);
  EXPECT_CONTAINS(message, "No such file");
}

TEST(PosixFile, AReadErrorIsNamed) {
  TempDir dir("tdcone_posix_file_test");
  PosixFile file(dir.path(""));  // a directory opens read-only, but does not read
  char buffer[4];
  const std::string message = test_support::io_error_of([&] { file.read(buffer, 4); });
  EXPECT_CONTAINS(message, "cannot read");
  EXPECT_CONTAINS(message, dir.path(""));
}

TEST(FileKind, NamesEachKindOfFile) {
  EXPECT_EQ(file_kind(S_IFREG), "a file");
  EXPECT_EQ(file_kind(S_IFDIR), "a directory");
  EXPECT_EQ(file_kind(S_IFLNK), "a symbolic link");
  EXPECT_EQ(file_kind(S_IFIFO), "a pipe or FIFO");
  EXPECT_EQ(file_kind(S_IFSOCK), "a socket");
  EXPECT_EQ(file_kind(S_IFCHR), "a terminal or device");
}

}  // namespace
}  // namespace tdcone::io
