// Labels as the record parser reads them: TSV label columns and JSONL label
// fields, each value or its problem. Every expected value is worked out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tdcone/io/record.hpp"
#include "usage_error.hpp"

namespace tdcone {
namespace {

using test_support::usage_error;

std::vector<std::string> labels_of(const io::Record& r) { return {r.labels.begin(), r.labels.end()}; }

// ---- RecordParser: TSV label columns ----

io::FieldSpec tsv_labels(std::vector<int> cols) {
  io::FieldSpec spec;
  spec.label_cols = std::move(cols);
  return spec;
}

TEST(LabelRecordTest, TsvLabelsAreTrimmedOfSpaces) {
  io::RecordParser parser(tsv_labels({5, 6}));
  io::Record r;
  ASSERT_EQ(parser.parse("src\ttgt\t0.5\tid\t  formal \t high", r), "");
  EXPECT_EQ(r.src, "src");
  EXPECT_EQ(r.tgt, "tgt");
  EXPECT_EQ(r.label_problem, "");
  EXPECT_EQ(labels_of(r), (std::vector<std::string>{"formal", "high"}));
  // In the order of label_cols, not of the columns; a tab inside a value is a column break.
  io::RecordParser reversed(tsv_labels({4, 3}));
  ASSERT_EQ(reversed.parse("a\tb\tthird\tfourth\tfifth", r), "");
  EXPECT_EQ(labels_of(r), (std::vector<std::string>{"fourth", "third"}));
}

TEST(LabelRecordTest, TsvMissingLabelColumnIsALabelProblemNotABadLine) {
  io::RecordParser parser(tsv_labels({5, 6}));
  io::Record r;
  ASSERT_EQ(parser.parse("src\ttgt\tx\ty\tformal", r), "");
  EXPECT_EQ(r.src, "src");
  EXPECT_EQ(r.tgt, "tgt");
  EXPECT_EQ(r.label_problem, "missing label column 6");
  EXPECT_TRUE(r.labels.empty());
  ASSERT_EQ(parser.parse("src\ttgt", r), "");
  EXPECT_EQ(r.label_problem, "missing label column 5");
  EXPECT_EQ(r.tgt, "tgt");
  // The next good line has its labels again (nothing left over from the last one).
  ASSERT_EQ(parser.parse("s\tt\tx\ty\tcasual\tlow", r), "");
  EXPECT_EQ(r.label_problem, "");
  EXPECT_EQ(labels_of(r), (std::vector<std::string>{"casual", "low"}));
}

TEST(LabelRecordTest, TsvEmptyLabelColumn) {
  io::RecordParser parser(tsv_labels({5, 6}));
  io::Record r;
  ASSERT_EQ(parser.parse("src\ttgt\tx\ty\t   \thigh", r), "");
  EXPECT_EQ(r.label_problem, "empty label column 5");
  ASSERT_EQ(parser.parse("src\ttgt\tx\ty\tformal\t", r), "");
  EXPECT_EQ(r.label_problem, "empty label column 6");
  EXPECT_TRUE(r.labels.empty());
}

TEST(LabelRecordTest, TsvInvalidUtf8Label) {
  io::RecordParser parser(tsv_labels({3}));
  io::Record r;
  ASSERT_EQ(parser.parse("src\ttgt\tbad \xff label", r), "");
  EXPECT_EQ(r.label_problem, "invalid UTF-8 in label column 3");
  EXPECT_TRUE(r.labels.empty());
}

TEST(LabelRecordTest, TsvBadLineHasItsReasonAndNoLabelProblem) {
  io::FieldSpec spec = tsv_labels({3});
  spec.score_col = 4;
  io::RecordParser parser(spec);
  io::Record r;
  EXPECT_EQ(parser.parse("only one column", r), "missing column 2");
  EXPECT_EQ(r.label_problem, "");
  EXPECT_TRUE(r.labels.empty());
  EXPECT_EQ(parser.parse("a\tb\tformal\tnot-a-score", r), "unparsable score 'not-a-score'");
  EXPECT_EQ(r.label_problem, "");
  EXPECT_TRUE(r.labels.empty());
  // A bad line whose label column is missing too: the bad line's reason only.
  EXPECT_EQ(io::RecordParser(tsv_labels({6})).parse("no tab", r), "missing column 2");
  EXPECT_EQ(r.label_problem, "");
}

TEST(LabelRecordTest, TsvLabelColumnsAreOneBased) {
  EXPECT_CONTAINS(usage_error([] { io::RecordParser p(tsv_labels({3, 0})); }), "1-based");
  EXPECT_CONTAINS(usage_error([] { io::RecordParser p(tsv_labels({-2})); }), "1-based");
}

// ---- RecordParser: JSONL label fields ----

io::FieldSpec jsonl_labels(std::vector<std::string> fields) {
  io::FieldSpec spec;
  spec.format = io::Format::jsonl;
  spec.label_fields = std::move(fields);
  return spec;
}

// The label of field x in {"src":"a","tgt":"b","x":<value>}, or its problem.
std::string json_label(const std::string& value) {
  io::RecordParser parser(jsonl_labels({"x"}));
  io::Record r;
  const std::string reason = parser.parse(R"({"src":"a","tgt":"b","x":)" + value + "}", r);
  if (!reason.empty()) return "bad line: " + reason;
  if (!r.label_problem.empty()) return "problem: " + std::string(r.label_problem);
  EXPECT_EQ(r.labels.size(), 1u);
  return r.labels.empty() ? "?" : std::string(r.labels[0]);
}

TEST(LabelRecordTest, JsonLabelValues) {
  EXPECT_EQ(json_label(R"("formal")"), "formal");
  EXPECT_EQ(json_label(R"("  formal ")"), "formal");
  EXPECT_EQ(json_label("42"), "42");
  EXPECT_EQ(json_label("-7"), "-7");
  EXPECT_EQ(json_label("0"), "0");
  EXPECT_EQ(json_label("18446744073709551615"), "18446744073709551615");  // beyond int64
  EXPECT_EQ(json_label("0.25"), "0.25");
  EXPECT_EQ(json_label("-1.5"), "-1.5");
  EXPECT_EQ(json_label("true"), "true");
  EXPECT_EQ(json_label("false"), "false");
}

TEST(LabelRecordTest, JsonLabelProblems) {
  EXPECT_EQ(json_label("null"), "problem: label field 'x' is null");
  EXPECT_EQ(json_label(R"({"a":1})"), "problem: label field 'x' is not a string, number or boolean");
  EXPECT_EQ(json_label("[1,2]"), "problem: label field 'x' is not a string, number or boolean");
  EXPECT_EQ(json_label(R"("")"), "problem: empty label field 'x'");
  EXPECT_EQ(json_label(R"("   ")"), "problem: empty label field 'x'");
  io::RecordParser parser(jsonl_labels({"x"}));
  io::Record r;
  ASSERT_EQ(parser.parse(R"({"src":"a","tgt":"b","y":"formal"})", r), "");
  EXPECT_EQ(r.src, "a");
  EXPECT_EQ(r.tgt, "b");
  EXPECT_EQ(r.label_problem, "missing label field 'x'");
  EXPECT_TRUE(r.labels.empty());
}

TEST(LabelRecordTest, JsonLabelsInTheOrderOfTheFields) {
  io::RecordParser parser(jsonl_labels({"style", "level"}));
  io::Record r;
  ASSERT_EQ(parser.parse(R"({"level":3,"tgt":"b","style":"formal","src":"a"})", r), "");
  EXPECT_EQ(labels_of(r), (std::vector<std::string>{"formal", "3"}));
  ASSERT_EQ(parser.parse(R"({"src":"a","tgt":"b","style":"casual"})", r), "");
  EXPECT_EQ(r.label_problem, "missing label field 'level'");
  // Both labels unusable: the first problem in the line is reported.
  ASSERT_EQ(parser.parse(R"({"src":"a","tgt":"b","level":null,"style":""})", r), "");
  EXPECT_EQ(r.label_problem, "label field 'level' is null");
  ASSERT_EQ(parser.parse(R"({"src":"a","tgt":"b","style":true,"level":-0.5})", r), "");
  EXPECT_EQ(r.label_problem, "");
  EXPECT_EQ(labels_of(r), (std::vector<std::string>{"true", "-0.5"}));
}

TEST(LabelRecordTest, JsonBadLineHasNoLabelProblem) {
  io::RecordParser parser(jsonl_labels({"x"}));
  io::Record r;
  EXPECT_EQ(parser.parse(R"({"src":"a","x":"formal"})", r), "missing field 'tgt'");
  EXPECT_EQ(r.label_problem, "");
  EXPECT_TRUE(r.labels.empty());
  EXPECT_EQ(parser.parse(R"({"src":"a","x":null})", r), "missing field 'tgt'");
  EXPECT_EQ(r.label_problem, "");
  EXPECT_EQ(parser.parse(R"({"src":"a","tgt":"b","x":"formal"} junk)", r).substr(0, 12), "invalid JSON");
  EXPECT_EQ(r.label_problem, "");
}

}  // namespace
}  // namespace tdcone
