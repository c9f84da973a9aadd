// tdcone export's command line (cli/export_command.hpp): the table, format,
// filters and order parsed into ExportConfig; a table that is none refused.
#include "tdcone/cli/export_command.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_command.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Export = test_support::ParsedCommand<ExportOptions>;

// The result is export's one argument, and must exist.
class ExportCommand : public ::testing::Test {
 protected:
  test_support::TempDir dir_{"tdcone_cli_export_test"};
  const std::string result_ = dir_.write("r.h5", "x");
};

TEST_F(ExportCommand, DefaultsExportPairsAsTsvToStandardOutput) {
  Export e("export", add_export_options);
  ASSERT_EQ(e.parse({result_}), "");
  const exporting::ExportConfig& c = e.values.config;
  EXPECT_EQ(c.hdf5, result_);
  EXPECT_EQ(c.group, "pairs");
  EXPECT_EQ(c.output, "-");
  EXPECT_EQ(e.values.to, "tsv");
  EXPECT_EQ(c.top, 0u);
  EXPECT_FALSE(c.text);
}

TEST_F(ExportCommand, OptionsBecomeTypedValues) {
  Export e("export", add_export_options);
  ASSERT_EQ(e.parse({result_, "--group", "selection", "--to", "jsonl", "--output", "o.jsonl.zst", "--force",
                     "--text", "--sort-by", "tdcone", "--ascending", "--top", "10", "--where", "flags==0", "--where",
                     "tdcone>0.5", "--selected", "--side", "tgt"}),
            "");
  const exporting::ExportConfig& c = e.values.config;
  EXPECT_EQ(c.hdf5, result_);
  EXPECT_EQ(c.group, "selection");
  EXPECT_EQ(e.values.to, "jsonl");
  EXPECT_EQ(c.output, "o.jsonl.zst");
  EXPECT_TRUE(c.force);
  EXPECT_TRUE(c.text);
  EXPECT_EQ(c.sort_by, "tdcone");
  EXPECT_TRUE(c.ascending);
  EXPECT_FALSE(c.descending);
  EXPECT_EQ(c.top, 10u);
  EXPECT_EQ(c.where, (std::vector<std::string>{"flags==0", "tdcone>0.5"}));
  EXPECT_TRUE(c.selected);
  EXPECT_EQ(e.values.side, "tgt");
}

TEST_F(ExportCommand, BadValuesAreRefusedNamingTheOption) {
  Export group("export", add_export_options);
  const std::string message = group.parse({result_, "--group", "corpus"});
  EXPECT_CONTAINS(message, "--group");
  EXPECT_CONTAINS(message, "corpus");
  Export to("export", add_export_options);
  EXPECT_CONTAINS(to.parse({result_, "--to", "csv"}), "--to");
  Export top("export", add_export_options);
  EXPECT_CONTAINS(top.parse({result_, "--top", "-3"}), "--top");
  Export missing("export", add_export_options);
  EXPECT_CONTAINS(missing.parse({dir_.path("missing.h5")}), "missing.h5");
}

}  // namespace
}  // namespace tdcone::cli
