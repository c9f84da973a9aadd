// export --where: numbers compared as numbers, text columns with == and != on
// a quoted value, and a clear refusal of every other mix.
#include "tdcone/exporting/where.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "tdcone/core/error.hpp"

namespace tdcone::exporting {
namespace {

// A /balance-like table: pair_id, kept (numbers), tdcone (with a NaN), combination (text).
class WhereTest : public ::testing::Test {
 protected:
  WhereTest() {
    columns_["pair_id"].kind = hdf5::Column::Kind::unsigned_integer;
    columns_["pair_id"].unsigned_values = {0, 1, 2, 3};
    columns_["tdcone"].real_values = {0.5, NAN, 0.25, 1.0};
    columns_["combination"].kind = hdf5::Column::Kind::text;
    columns_["combination"].text_values = {"(6,6)", "(0,6)", "", "(6,6)|x"};
    columns_["flags"].kind = hdf5::Column::Kind::unsigned_integer;
    columns_["flags"].unsigned_values = {0, 32, 33, 96};  // -, duplicate, duplicate|bad_line, duplicate|in_reference
    columns_["markers"].kind = hdf5::Column::Kind::unsigned_integer;
    columns_["markers"].unsigned_values = {0, 16, 256 | 17, 8};  // -, tgt_url, copy|src_url|tgt_url, src_question
  }

  RowCondition parse(const std::string& text) {
    return parse_where(text, [&](const std::string& name) -> const hdf5::Column& {
      const auto found = columns_.find(name);
      if (found == columns_.end()) throw UsageError("no column " + name);
      return found->second;
    }, "/balance");
  }
  std::vector<std::size_t> rows(const std::string& text) {
    const RowCondition condition = parse(text);
    std::vector<std::size_t> kept;
    for (std::size_t r = 0; r < 4; ++r)
      if (condition.holds(r)) kept.push_back(r);
    return kept;
  }
  std::string error(const std::string& text) {
    try {
      parse(text);
    } catch (const UsageError& e) {
      return e.what();
    }
    ADD_FAILURE() << text << " was accepted";
    return "";
  }

  std::map<std::string, hdf5::Column> columns_;
};

using Rows = std::vector<std::size_t>;

TEST_F(WhereTest, NumbersAsBefore) {
  EXPECT_EQ(rows("tdcone<0.5"), (Rows{2}));
  EXPECT_EQ(rows(" tdcone >= 0.5 "), (Rows{0, 3}));
  EXPECT_EQ(rows("tdcone!=0.5"), (Rows{2, 3}));  // NaN never passes, not even !=
  EXPECT_EQ(rows("pair_id==3"), (Rows{3}));
  EXPECT_EQ(rows("pair_id>1e0"), (Rows{2, 3}));
}

TEST_F(WhereTest, TextEqualsAQuotedValue) {
  EXPECT_EQ(rows("combination=='(6,6)'"), (Rows{0}));
  EXPECT_EQ(rows(R"w(combination == "(6,6)")w"), (Rows{0}));
  EXPECT_EQ(rows("combination!='(6,6)'"), (Rows{1, 2, 3}));
  EXPECT_EQ(rows("combination==''"), (Rows{2}));  // no combination
  EXPECT_EQ(rows(R"(combination=="it's")"), (Rows{}));  // the other quote inside
  EXPECT_EQ(rows("combination=='(6,6)|x'"), (Rows{3}));
}

TEST_F(WhereTest, MixesAreRefused) {
  EXPECT_NE(error("combination==(6,6)").find("column 'combination' of /balance holds text: quote the value, e.g. "
                                             "\"combination=='(6,6)'\""), std::string::npos);
  EXPECT_NE(error("combination<'(6,6)'").find("holds text: compare it with == or !="), std::string::npos);
  EXPECT_NE(error("tdcone=='0.5'").find("column 'tdcone' of /balance holds numbers: give the value without quotes, "
                                        "e.g. 'tdcone==0.5'"), std::string::npos);
  EXPECT_NE(error("tdcone<abc").find("'abc' in 'tdcone<abc' is not a number"), std::string::npos);
  EXPECT_NE(error("tdcone<nan").find("is not a number"), std::string::npos);
  EXPECT_NE(error("tdcone~1").find("is not COLUMN OP NUMBER"), std::string::npos);
  EXPECT_NE(error("combination=='a' b").find("is not COLUMN OP NUMBER"), std::string::npos);
  EXPECT_NE(error("nope<1").find("no column nope"), std::string::npos);
}

TEST_F(WhereTest, FlagBitsByName) {
  EXPECT_EQ(rows("flags.duplicate==0"), (Rows{0}));
  EXPECT_EQ(rows("flags.duplicate == 1"), (Rows{1, 2, 3}));
  EXPECT_EQ(rows("flags.in_reference!=0"), (Rows{3}));
  EXPECT_EQ(rows("flags.bad_line==1"), (Rows{2}));
  EXPECT_EQ(rows("flags.bad_line!=1"), (Rows{0, 1, 3}));
}

TEST_F(WhereTest, MarkerBitsByName) {
  EXPECT_EQ(rows("markers.tgt_url==0"), (Rows{0, 3}));
  EXPECT_EQ(rows("markers.src_url==1"), (Rows{2}));
  EXPECT_EQ(rows("markers.copy!=0"), (Rows{2}));
  EXPECT_EQ(rows("markers.src_question==1"), (Rows{3}));
  EXPECT_NE(error("markers.duplicate==0").find("no markers bit is named 'duplicate' (src_url, "), std::string::npos);
}

TEST_F(WhereTest, FlagBitsRefusedClearly) {
  EXPECT_NE(error("flags.dupe==0").find("no flags bit is named 'dupe' (bad_line, junk, not_selected, in_seed, no_label, "
                                        "duplicate, in_reference, left_out)"), std::string::npos);
  EXPECT_NE(error("flags.duplicate<1").find("a bit is 0 or 1"), std::string::npos);
  EXPECT_NE(error("flags.duplicate==32").find("a bit is 0 or 1"), std::string::npos);
  EXPECT_NE(error("tdcone.duplicate==0").find("only flags and markers have named bits"), std::string::npos);
  EXPECT_NE(error("flags.==0").find("is not COLUMN OP NUMBER"), std::string::npos);
}

TEST_F(WhereTest, SpacesAndQuotesAsTheRegularExpressionTookThem) {
  EXPECT_EQ(rows("\t tdcone\n<\v0.5\f\r"), (Rows{2}));
  EXPECT_EQ(rows("combination == ' (6,6)'"), (Rows{}));   // spaces inside quotes are the text's
  EXPECT_EQ(rows("combination=='(6,6)'  "), (Rows{0}));
  EXPECT_NE(error("combination=='a'b'").find("holds text: quote the value"), std::string::npos);  // one word
  EXPECT_NE(error("tdcone<'").find("''' in 'tdcone<'' is not a number"), std::string::npos);  // a lone quote: a word
  EXPECT_NE(error("tdcone<=").find("is not COLUMN OP NUMBER"), std::string::npos);
  EXPECT_NE(error("tdcone<").find("is not COLUMN OP NUMBER"), std::string::npos);
  EXPECT_NE(error("tdcone<<1").find("'<1' in 'tdcone<<1' is not a number"), std::string::npos);
  EXPECT_NE(error("flags .duplicate==0").find("is not COLUMN OP NUMBER"), std::string::npos);
  EXPECT_NE(error("1tdcone<1").find("is not COLUMN OP NUMBER"), std::string::npos);
  EXPECT_NE(error("").find("is not COLUMN OP NUMBER"), std::string::npos);
  EXPECT_NE(error("tdcone<1 2").find("is not COLUMN OP NUMBER"), std::string::npos);
}

TEST_F(WhereTest, ALongConditionIsRefusedByItsLength) {
  const std::string padded = std::string(kMaxWhereLength - 8, ' ') + "tdcone<1";
  EXPECT_EQ(rows(padded), (Rows{0, 2}));  // at the limit: accepted
  for (const std::string& text : {std::string(30'000, ' ') + "tdcone<1", std::string(100'000, 'a') + "<1",
                                  "tdcone<" + std::string(100'000, '1'), std::string(1'000'000, '(')}) {
    const std::string message = error(text);
    EXPECT_NE(message.find(cat("--where: a condition has at most 4096 characters; this one has ", text.size())),
              std::string::npos) << message.substr(0, 200);
    EXPECT_LT(message.size(), 300u);  // the condition is not repeated whole
    EXPECT_THROW(split_where(text), UsageError);
  }
}

TEST(SplitWhere, PartsAsWritten) {
  const WhereParts bit = split_where(" flags.duplicate != 1 ");
  EXPECT_EQ(bit.column, "flags");
  EXPECT_EQ(bit.bit, "duplicate");
  EXPECT_EQ(bit.op, "!=");
  EXPECT_EQ(bit.value, "1");
  EXPECT_FALSE(bit.quoted);
  const WhereParts text = split_where(R"(combination=="it's")");
  EXPECT_EQ(text.value, "it's");
  EXPECT_TRUE(text.quoted);
  EXPECT_EQ(split_where("a>=-1e3").op, ">=");
  EXPECT_EQ(split_where("a>-1e3").value, "-1e3");
}

}  // namespace
}  // namespace tdcone::exporting
