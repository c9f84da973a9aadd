// The result schema (schema/results.hpp, pair_flags.hpp): its names, its
// tables and its flag bits. Its JSON: schema_schema_json_test.cpp.
#include "tdcone/schema/results.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tdcone/schema/pair_flags.hpp"

namespace tdcone::schema {
namespace {

TEST(SchemaTest, FlagBitsKeepTheirValues) {  // docs/spec.md §8: new bits are added, never renumbered
  EXPECT_EQ(bad_line, 1);
  EXPECT_EQ(junk, 2);
  EXPECT_EQ(not_selected, 4);
  EXPECT_EQ(in_seed, 8);
  EXPECT_EQ(no_label, 16);
  EXPECT_EQ(duplicate, 32);
  EXPECT_EQ(in_reference, 64);
  EXPECT_EQ(left_out, 128);
  std::uint32_t seen = 0;
  for (const FlagBit& bit : flag_bits()) {
    EXPECT_EQ(seen & bit.bit, 0u) << bit.name;
    seen |= bit.bit;
  }
  EXPECT_EQ(seen, 255u);
}

TEST(SchemaTest, ColumnPathsJoinGroupAndName) {
  EXPECT_EQ(pairs::tdcone.path(), "/pairs/tdcone");
  EXPECT_EQ(selection::root_word.path(), "/selection/root_word");
  EXPECT_STREQ(corpus::nnz.object, "/corpus");
}

TEST(SchemaTest, EveryEntryBelongsToItsTableOnce) {
  std::set<std::string> groups;
  for (const Table& table : tables()) {
    EXPECT_TRUE(groups.insert(table.group).second) << table.group;
    std::set<std::string> names;
    for (const Column* column : table.columns) {
      EXPECT_STREQ(column->group, table.group) << column->name;
      EXPECT_TRUE(names.insert(column->name).second) << table.group << " " << column->name;
    }
    for (const Attribute* attribute : table.attributes) EXPECT_STREQ(attribute->object, table.group) << attribute->name;
  }
  for (const Attribute* attribute : root_attributes()) EXPECT_STREQ(attribute->object, "/") << attribute->name;
}

// The columns the checks require (check_result_table, the scripts' check_result): the same since they exist.
TEST(SchemaTest, CheckedTablesRequireTheColumnsEveryVersionWrites) {
  const auto required = [](const char* group) { return find_table(group)->required_columns(); };
  using Names = std::vector<std::string>;
  EXPECT_EQ(required("/pairs"), (Names{"pair_id", "tdcone", "rank", "flags", "src_len", "tgt_len"}));
  EXPECT_EQ(required("/selection"),
            (Names{"pair_id", "rank", "delta_h", "penalty", "gain", "cross_entropy", "root_word", "wge", "flags"}));
  EXPECT_EQ(required("/balance"), (Names{"pair_id", "combination", "kept", "rank_in_combination", "flags"}));
  EXPECT_EQ(required("/combinations"), (Names{"combination", "before", "target", "after", "under_represented"}));
  EXPECT_EQ(required("/labels"), (Names{"label", "n_pairs", "tdcone"}));
  EXPECT_EQ(required("/shards"), (Names{"shard", "n_pairs", "tdcone"}));
  EXPECT_EQ(required("/sweep"), (Names{"threshold", "n_pairs", "n_sampled", "tdcone"}));
  EXPECT_STREQ(find_table("/labels")->writer, "tdcone score --by-label");
  EXPECT_FALSE(find_table("/corpus")->checked);
  EXPECT_EQ(find_table("/nothing"), nullptr);
}

}  // namespace
}  // namespace tdcone::schema
