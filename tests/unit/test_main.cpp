// Unit tests run as one MPI process (some stages take a communicator).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tdcone/cli/option_names.hpp"

int main(int argc, char** argv) {
  // A temporary directory of the process's own, for Open MPI's session
  // directories too: ctest -j runs singletons side by side, and under a shared
  // /tmp/ompi.HOST.UID one's cleanup can remove it while another creates its
  // own inside (tests/e2e/lib.sh does the same for the scripts).
  const std::filesystem::path parent = std::filesystem::temp_directory_path();
  std::string own = (parent / "tdcone-unit.XXXXXX").string();
  const bool private_tmp = ::mkdtemp(own.data()) != nullptr;
  if (private_tmp) ::setenv("TMPDIR", own.c_str(), 1);
  MPI_Init(&argc, &argv);
  tdcone::cli::install_option_names();  // as tdcone does: messages name options with them
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  MPI_Finalize();
  std::error_code ignored;
  if (private_tmp) std::filesystem::remove_all(own, ignored);
  return status;
}
