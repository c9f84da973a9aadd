// tdcone info's command line (cli/info_command.hpp): the result file is its
// one argument, and must exist.
#include "tdcone/cli/info_command.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cli_command.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Info = test_support::ParsedCommand<InfoOptions>;

TEST(InfoCommand, TheResultIsItsArgument) {
  test_support::TempDir dir("tdcone_cli_info_test");
  const std::string result = dir.write("r.h5", "x");
  Info info("info", add_info_options);
  ASSERT_EQ(info.parse({result}), "");
  EXPECT_EQ(info.values.hdf5, result);
}

TEST(InfoCommand, AMissingResultIsRefusedNamingIt) {
  Info info("info", add_info_options);
  EXPECT_CONTAINS(info.parse({"/nonexistent/r.h5"}), "/nonexistent/r.h5");
  Info none("info", add_info_options);
  EXPECT_CONTAINS(none.parse({}), "hdf5");
}

}  // namespace
}  // namespace tdcone::cli
