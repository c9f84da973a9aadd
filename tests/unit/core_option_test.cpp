// The option names that messages use (core/option.hpp): installed words are
// what option_name, operator<< and cat give, and an empty word is refused.
#include "tdcone/core/option.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"

namespace tdcone {
namespace {

// Installs words of its own for the test and puts back the ones installed
// before (the command line's: test_main.cpp installs them).
class OptionWords : public ::testing::Test {
 protected:
  void SetUp() override {
    for (std::size_t i = 0; i < kOptionCount; ++i) before_.push_back(option_name(static_cast<Option>(i)));
  }
  void TearDown() override { set_option_names(views(before_)); }

  // "/opt0", "/opt1", ...: a word per Option, by its index.
  static std::vector<std::string> numbered() {
    std::vector<std::string> words;
    for (std::size_t i = 0; i < kOptionCount; ++i) words.push_back("/opt" + std::to_string(i));
    return words;
  }
  static OptionNames views(const std::vector<std::string>& words) {
    OptionNames names{};
    for (std::size_t i = 0; i < kOptionCount; ++i) names[i] = words[i];
    return names;
  }

  std::vector<std::string> before_;
};

TEST_F(OptionWords, EachOptionIsNamedByTheWordAtItsIndex) {
  const std::vector<std::string> words = numbered();
  set_option_names(views(words));
  EXPECT_EQ(option_name(Option::align), "/opt0");  // the first of the enum
  EXPECT_EQ(option_name(Option::memory), "/opt" + std::to_string(static_cast<int>(Option::memory)));
  EXPECT_EQ(option_name(Option::where_result), "/opt" + std::to_string(kOptionCount - 1));  // the last
}

TEST_F(OptionWords, InstalledWordsAreCopiesThatOutliveTheirSource) {
  {
    std::vector<std::string> words = numbered();
    words[static_cast<std::size_t>(Option::memory)] = "--ram";
    set_option_names(views(words));
    words[static_cast<std::size_t>(Option::memory)] = "changed afterwards";
  }
  EXPECT_EQ(option_name(Option::memory), "--ram");
}

TEST_F(OptionWords, StreamsAndMessagesWriteTheInstalledWord) {
  std::vector<std::string> words = numbered();
  words[static_cast<std::size_t>(Option::memory)] = "--ram";
  words[static_cast<std::size_t>(Option::src_file)] = "--from";
  words[static_cast<std::size_t>(Option::tgt_file)] = "--to";
  set_option_names(views(words));
  std::ostringstream out;
  out << Option::memory << " 2G";
  EXPECT_EQ(out.str(), "--ram 2G");
  EXPECT_EQ(cat(Option::src_file, "/", Option::tgt_file, " differ"), "--from/--to differ");
}

TEST_F(OptionWords, AnEmptyWordIsRefusedNamingItsIndexAndKeepsTheWordsBefore) {
  std::vector<std::string> words = numbered();
  words[static_cast<std::size_t>(Option::memory)] = "--ram";
  set_option_names(views(words));
  std::vector<std::string> bad = numbered();
  bad[5] = "";
  try {
    set_option_names(views(bad));
    FAIL() << "an empty word was installed";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()), "option 5 has no name");
  }
  EXPECT_EQ(option_name(Option::memory), "--ram");  // the words installed before stay
  EXPECT_EQ(option_name(static_cast<Option>(5)), "/opt5");
}

}  // namespace
}  // namespace tdcone
