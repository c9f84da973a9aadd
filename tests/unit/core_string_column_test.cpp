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
  EXPECT_EQ(column.chars(), 4u * 10 + 5 * 90 + 6 * 900);
  column.shrink_to_fit();  // a spare of up to a quarter stays
  EXPECT_EQ(column[999], "id-999");
  EXPECT_LE(column.bytes(), 1.25 * (1000 * 8 + column.chars()));
}

TEST(StringColumn, AReservedColumnIsNotCopiedAsItFillsNorByShrinking) {
  tdcone::StringColumn column;
  column.reserve(1000, 6000);
  column.push_back("id-0");
  const char* first = column[0].data();
  for (int i = 1; i < 1000; ++i) column.push_back("id-" + std::to_string(i));
  column.shrink_to_fit();  // 110 spare characters of 6000: kept
  EXPECT_EQ(column[0].data(), first);
  EXPECT_EQ(column.bytes(), 1000 * 8 + 6000u);
  column.push_back("one more row past the reserve");  // grows as usual
  EXPECT_EQ(column[1000], "one more row past the reserve");
  EXPECT_EQ(column[999], "id-999");
}

}  // namespace
