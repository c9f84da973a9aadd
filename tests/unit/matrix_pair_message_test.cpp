// The message of a pair's rows to an owner of M (include/tdcone/matrix/
// pair_message.hpp): what the writer appends the reader gives back.
#include <gtest/gtest.h>

#include <vector>

#include "tdcone/matrix/pair_message.hpp"

namespace tdcone {
namespace {

namespace pair_message = matrix::pair_message;

std::vector<std::uint32_t> read_rows(const pair_message::Reader& message) {
  std::vector<std::uint32_t> rows;
  std::uint32_t expected_index = 0;
  message.for_each_row([&](std::uint32_t row, std::uint32_t index) {
    EXPECT_EQ(index, expected_index++);
    rows.push_back(row);
  });
  return rows;
}

TEST(MatrixPairMessageTest, TheReaderGivesBackWhatTheWriterWrote) {
  const std::vector<std::uint32_t> yo = {4, 9, 70000}, same = {3}, xo = {12, 5};
  // Rule 2's weights, row after row; one needs its high word.
  const std::vector<std::uint64_t> weights = {1, 2, 3, std::uint64_t{5} << 40 | 7, 8, 9};
  std::vector<std::uint32_t> words = {77};  // a message appended after others
  const std::size_t length = pair_message::append(
      words, {.group = 6, .yo = yo, .same = same, .xo = xo, .weights = weights, .null_row = true, .weighted = true});
  ASSERT_EQ(words.size(), 1 + length);
  EXPECT_EQ(length, pair_message::kHeaderWords + 3 + 1 + 2 + 2 * 6);
  const pair_message::Reader message(&words[1]);
  EXPECT_EQ(message.length(), length);
  EXPECT_EQ(message.group(), 6u);
  EXPECT_EQ(message.n_yo(), 3u);
  EXPECT_EQ(message.n_same(), 1u);
  EXPECT_EQ(message.n_xo(), 2u);
  EXPECT_EQ(message.flags(), pair_message::null_row | pair_message::weighted);
  EXPECT_EQ(std::vector<std::uint32_t>(message.yo(), message.yo() + 3), yo);
  EXPECT_EQ(message.row_count(), 4u);
  EXPECT_EQ(read_rows(message), (std::vector<std::uint32_t>{3, 12, 5, 0})) << "rule 1, rule 2, NULL last";
  for (std::uint32_t index : {1u, 2u})  // the rule-2 rows
    for (std::size_t t = 0; t < yo.size(); ++t)
      EXPECT_EQ(pair_message::Reader::weight(message.weights_of(index), t), weights[(index - 1) * yo.size() + t]);
}

TEST(MatrixPairMessageTest, UniformMessagesCarryNoWeightsAndMayHaveNoRowsOfARule) {
  const std::vector<std::uint32_t> yo = {1, 2}, xo = {8};
  std::vector<std::uint32_t> words;
  const std::size_t first = pair_message::append(
      words, {.group = 0, .yo = yo, .same = {}, .xo = xo, .weights = {}, .null_row = false, .weighted = false});
  const std::size_t second = pair_message::append(
      words, {.group = 1, .yo = yo, .same = {}, .xo = {}, .weights = {}, .null_row = true, .weighted = false});
  EXPECT_EQ(first, pair_message::kHeaderWords + 3);
  EXPECT_EQ(second, pair_message::kHeaderWords + 2);
  const pair_message::Reader a(words.data()), b(words.data() + first);
  EXPECT_EQ(a.length(), first);
  EXPECT_EQ(b.length(), second);
  EXPECT_EQ(read_rows(a), std::vector<std::uint32_t>{8});
  EXPECT_EQ(read_rows(b), std::vector<std::uint32_t>{0}) << "a proper subset: only NULL's row";
  EXPECT_EQ(b.group(), 1u);
  EXPECT_EQ(a.row_count() + b.row_count(), 2u);
}

}  // namespace
}  // namespace tdcone
