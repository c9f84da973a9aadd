#pragma once
// A scratch directory shared by every rank of MPI_COMM_WORLD: rank 0 names it
// (tag and its pid, so concurrent test runs do not collide), creates it, and
// removes it once every rank is done with it.
#include <mpi.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace tdcone::test_support {

class SharedTempDir {
 public:
  explicit SharedTempDir(const std::string& tag) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    std::string name;
    if (rank_ == 0) {
      const auto dir = std::filesystem::temp_directory_path() / ("tdcone_" + tag + "_" + std::to_string(::getpid()));
      std::filesystem::remove_all(dir);
      std::filesystem::create_directories(dir);
      name = dir.string();
    }
    int length = static_cast<int>(name.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);  // after rank 0 created it
    name.resize(static_cast<std::size_t>(length));
    MPI_Bcast(name.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = name;
  }
  ~SharedTempDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    std::error_code ec;
    if (rank_ == 0) std::filesystem::remove_all(path_, ec);
  }
  SharedTempDir(const SharedTempDir&) = delete;
  SharedTempDir& operator=(const SharedTempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  int rank_ = 0;
  std::filesystem::path path_;
};

}  // namespace tdcone::test_support
