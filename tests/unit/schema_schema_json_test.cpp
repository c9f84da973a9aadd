// The schema as JSON (schema/schema_json.hpp), which the Python scripts read
// from scripts/tdcone_schema.json: what it names, and that the checked-in
// file is current.
#include "tdcone/schema/schema_json.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tdcone/schema/results.hpp"

namespace tdcone::schema {
namespace {

TEST(SchemaTest, JsonNamesEveryGroupAndFlag) {
  const std::string text = json();
  for (const Table& table : tables()) EXPECT_NE(text.find(std::string("\"group\": \"") + table.group + "\""), std::string::npos);
  EXPECT_NE(text.find(R"({"name": "in_seed", "value": 8,)"), std::string::npos);
  EXPECT_NE(text.find(R"({"name": "tdcone_version", "type": "string", "presence": "required",)"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

TEST(SchemaTest, CheckedInJsonIsCurrent) {
  const std::string path = TDCONE_SOURCE_DIR "/scripts/tdcone_schema.json";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::ostringstream checked_in;
  checked_in << in.rdbuf();
  EXPECT_TRUE(checked_in.str() == json())
      << path << " differs from the schema of src/schema: regenerate it with\n"
      << "  cmake --build build --target tdcone_schema_json && build/tdcone_schema_json > scripts/tdcone_schema.json";
}

}  // namespace
}  // namespace tdcone::schema
