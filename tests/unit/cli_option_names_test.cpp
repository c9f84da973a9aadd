// The option names that the modules' messages use (core/option.hpp) are the
// command line's own, installed by cli (test_main.cpp installs them as tdcone does).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tdcone/cli/app.hpp"
#include "tdcone/cli/option_names.hpp"
#include "tdcone/core/error.hpp"

namespace tdcone {
namespace {

TEST(OptionNames, EveryNameIsAnOptionOfSomeCommand) {
  const std::vector<std::string> declared = cli::long_option_names();
  ASSERT_FALSE(declared.empty());
  for (std::size_t i = 0; i < kOptionCount; ++i) {
    const std::string name(cli::option_names()[i]);
    EXPECT_NE(std::find(declared.begin(), declared.end(), name), declared.end())
        << name << " (Option " << i << ") is no option of any command";
  }
}

TEST(OptionNames, MessagesSpellOptionsAsTheCommandLine) {
  EXPECT_EQ(option_name(Option::memory), "--memory");
  EXPECT_EQ(option_name(Option::no_lowercase), "--no-lowercase");
  EXPECT_EQ(cat(Option::src_file, "/", Option::tgt_file), "--src-file/--tgt-file");
  EXPECT_EQ(cat(Option::where, " '", "x<1", "'"), "--where 'x<1'");
}

TEST(OptionNames, EveryOptionHasItsOwnName) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kOptionCount; ++i) names.push_back(option_name(static_cast<Option>(i)));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

}  // namespace
}  // namespace tdcone
