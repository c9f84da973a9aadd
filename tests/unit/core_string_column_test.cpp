#include "tdcone/core/string_column.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(StringColumn, RowsComeBackAsPushedEmptyOnesIncluded) {
  tdcone::StringColumn column;
  EXPECT_TRUE(column.empty());
  column.push_back("syn-1-0");
  column.push_back("");
  column.push_back(std::string(40, 'u'));  // past the small-string length
  column.push_back("é");
  ASSERT_EQ(column.size(), 4u);
  EXPECT_EQ(column[0], "syn-1-0");
  EXPECT_EQ(column[1], "");
  EXPECT_EQ(column[2], std::string(40, 'u'));
  EXPECT_EQ(column[3], "é");
}

TEST(StringColumn, HoldsTheCharactersAndOneOffsetARow) {
  tdcone::StringColumn column;
  for (int i = 0; i < 1000; ++i) column.push_back("id-" + std::to_string(i));
  column.shrink_to_fit();
  EXPECT_EQ(column[999], "id-999");
  EXPECT_LE(column.bytes(), 1000 * (8 + 6) + 64);
}

}  // namespace
