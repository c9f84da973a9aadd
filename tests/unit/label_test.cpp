// Labels of pairs: the parser's label columns and fields, bucket names and
// --label-buckets, value interning, agreement on one rank (values, mixed-radix
// combinations, counts), labels read with a share (flag 16), and the options.
// Every expected value below is worked out by hand from the inputs.
#include "tdcone/label/labels.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "tdcone/pipeline/job_config.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/mpi/share_reader.hpp"
#include "tdcone/text/tokenized_share.hpp"
#include "temp_files.hpp"

namespace tdcone {
namespace {

namespace bmpi = boost::mpi;
using label::kNoValue;

// The message of the UsageError `f` throws ("" and a test failure when it throws none).
template <class F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a UsageError: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "'" << (text) << "' lacks '" << (part) << "'"

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

// ---- bucket names and --label-buckets ----

TEST(LabelBucketsTest, NamesOfOneToFiveCuts) {
  using V = std::vector<std::string>;
  EXPECT_EQ(label::bucket_names({0.5}), (V{"low", "high"}));
  EXPECT_EQ(label::bucket_names({0.3, 0.6}), (V{"low", "mid", "high"}));
  EXPECT_EQ(label::bucket_names({0.2, 0.5, 0.8}), (V{"very low", "low", "high", "very high"}));
  EXPECT_EQ(label::bucket_names({0.2, 0.4, 0.6, 0.8}), (V{"very low", "low", "mid", "high", "very high"}));
  EXPECT_EQ(label::bucket_names({1, 2, 3, 4, 5}), (V{"<1", "[1,2)", "[2,3)", "[3,4)", "[4,5)", ">=5"}));
}

TEST(LabelBucketsTest, IntervalNamesOfSixCuts) {
  EXPECT_EQ(label::bucket_names({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}),
            (std::vector<std::string>{"<0.1", "[0.1,0.2)", "[0.2,0.3)", "[0.3,0.4)", "[0.4,0.5)", "[0.5,0.6)", ">=0.6"}));
  EXPECT_EQ(label::bucket_names({-1, 0, 2.5, 10, 100, 1000}),
            (std::vector<std::string>{"<-1", "[-1,0)", "[0,2.5)", "[2.5,10)", "[10,100)", "[100,1000)", ">=1000"}));
}

label::LabelSpec spec_of(std::vector<std::string> names) {
  label::LabelSpec spec;
  spec.names = std::move(names);
  spec.cuts.assign(spec.names.size(), {});
  return spec;
}

TEST(LabelBucketsTest, ByNameAndByColumnNumber) {
  label::LabelSpec spec = spec_of({"formality", "arousal", "source"});
  label::parse_buckets({"arousal=0.5", "5=0.2,0.4,0.6,0.8"}, {5, 6, 7}, spec);
  ASSERT_EQ(spec.cuts.size(), 3u);
  EXPECT_EQ(spec.cuts[0], (std::vector<double>{0.2, 0.4, 0.6, 0.8}));
  EXPECT_EQ(spec.cuts[1], (std::vector<double>{0.5}));
  EXPECT_TRUE(spec.cuts[2].empty());
  label::parse_buckets({"7=-3,1e3"}, {5, 6, 7}, spec);  // starts afresh
  EXPECT_TRUE(spec.cuts[0].empty());
  EXPECT_TRUE(spec.cuts[1].empty());
  EXPECT_EQ(spec.cuts[2], (std::vector<double>{-3, 1000}));
  label::parse_buckets({}, {}, spec);
  EXPECT_EQ(spec.cuts, (std::vector<std::vector<double>>(3)));
}

std::string bucket_error(const std::string& entry, const std::vector<std::string>& more = {}) {
  label::LabelSpec spec = spec_of({"formality", "arousal"});
  std::vector<std::string> entries = more;
  entries.push_back(entry);
  const std::string message = usage_error([&] { label::parse_buckets(entries, {5, 6}, spec); });
  EXPECT_CONTAINS(message, "'" + entry + "'");
  return message;
}

TEST(LabelBucketsTest, Errors) {
  EXPECT_CONTAINS(bucket_error("formality"), "NAME=CUT");
  EXPECT_CONTAINS(bucket_error("style=0.5"), "no label named 'style' (the labels: formality, arousal)");
  EXPECT_CONTAINS(bucket_error("7=0.5"), "no label named '7'");
  EXPECT_CONTAINS(bucket_error("formality=0.5,0.5"), "increase");
  EXPECT_CONTAINS(bucket_error("formality=0.6,0.4"), "increase");
  EXPECT_CONTAINS(bucket_error("formality=abc"), "'abc' is not a finite number");
  EXPECT_CONTAINS(bucket_error("formality=0.5,"), "'' is not a finite number");
  EXPECT_CONTAINS(bucket_error("formality="), "is not a finite number");
  EXPECT_CONTAINS(bucket_error("formality=0.5x"), "'0.5x' is not a finite number");
  EXPECT_CONTAINS(bucket_error("formality=inf"), "'inf' is not a finite number");
  EXPECT_CONTAINS(bucket_error("formality=0.3", {"formality=0.5"}), "formality");
  EXPECT_CONTAINS(bucket_error("5=0.3", {"formality=0.5"}), "already");  // the same label by its column
}

// ---- LocalLabels ----

TEST(LabelLocalTest, ValuesAreInternedInOrderOfAppearance) {
  const label::LabelSpec spec = spec_of({"a", "b"});
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  using SV = std::vector<std::string_view>;
  EXPECT_EQ(local.add(SV{"x", "y"}, ids), "");
  EXPECT_EQ(local.add(SV{"z", "y"}, ids), "");
  EXPECT_EQ(local.add(SV{"x", "w"}, ids), "");
  local.add_none(ids);
  EXPECT_EQ(local.add(SV{"z", "x"}, ids), "");  // "x" is new to label b
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 0, 1, 0, 0, 1, kNoValue, kNoValue, 1, 2}));
  EXPECT_EQ(local.take_values(), (std::vector<std::vector<std::string>>{{"x", "z"}, {"y", "w", "x"}}));
}

TEST(LabelLocalTest, BucketBoundaries) {
  label::LabelSpec spec = spec_of({"level"});
  spec.cuts[0] = {0.2, 0.4, 0.6, 0.8};
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  for (std::string_view v : {"0.1", "0.2", "0.39", "0.4", "0.6", "0.79", "0.8", "-5", "1e9", "0.2000001"}) {
    const std::string_view raw[] = {v};
    EXPECT_EQ(local.add(raw, ids), "") << v;
  }
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 1, 2, 3, 3, 4, 0, 4, 1}));
  EXPECT_EQ(local.take_values(),
            (std::vector<std::vector<std::string>>{{"very low", "low", "mid", "high", "very high"}}));
}

TEST(LabelLocalTest, JudgementsAreBucketedAsNOverM) {
  // The paper's split of the Twitter URL judgement: n <= 2 of 6 no paraphrase, n == 3 dropped, n >= 4 paraphrase.
  label::LabelSpec spec = spec_of({"judgement"});
  spec.cuts[0] = {0.5, 0.6};
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  for (std::string_view v : {"(0,6)", "(1,6)", "(2,6)", "(3,6)", "(4,6)", "(5,6)", "(6,6)"}) {
    const std::string_view raw[] = {v};
    EXPECT_EQ(local.add(raw, ids), "") << v;
  }
  const std::string_view too_many[] = {"(7,6)"};
  EXPECT_CONTAINS(local.add(too_many, ids), "'(7,6)' is not a number");
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 0, 0, 1, 2, 2, 2, kNoValue}));
  EXPECT_EQ(local.take_values(), (std::vector<std::vector<std::string>>{{"low", "mid", "high"}}));
}

TEST(LabelLocalTest, NotANumberUnderBucketsGivesNoValueForEveryLabel) {
  label::LabelSpec spec = spec_of({"kind", "level"});
  spec.cuts[1] = {0.5};
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  using SV = std::vector<std::string_view>;
  EXPECT_EQ(local.add(SV{"a", "0.7"}, ids), "");
  const std::string why = local.add(SV{"b", "abc"}, ids);
  EXPECT_CONTAINS(why, "is not a number");
  EXPECT_CONTAINS(why, "level");
  EXPECT_CONTAINS(why, "'abc'");
  EXPECT_CONTAINS(local.add(SV{"a", ""}, ids), "is not a number");
  EXPECT_CONTAINS(local.add(SV{"a", "nan"}, ids), "is not a number");
  EXPECT_EQ(local.add(SV{"a", "0.5"}, ids), "");
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, kNoValue, kNoValue, kNoValue, kNoValue, kNoValue, kNoValue, 0, 1}));
}

TEST(LabelLocalTest, ValuesThatWouldMakeCombinationNamesAmbiguousAreProblems) {
  label::LabelSpec spec = spec_of({"kind", "level"});
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  using SV = std::vector<std::string_view>;
  EXPECT_CONTAINS(local.add(SV{"a|b", "x"}, ids), "label kind: 'a|b' holds '|' or is '*'");
  EXPECT_CONTAINS(local.add(SV{"a", "*"}, ids), "label level: '*' holds '|' or is '*'");
  EXPECT_EQ(local.add(SV{"a*", "x"}, ids), "");  // a '*' inside a value names nothing
  // "a" was interned before "*" was refused (agree_labels keeps only values pairs use): "a*" is kind's value 1.
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{kNoValue, kNoValue, kNoValue, kNoValue, 1, 0}));
}

// ---- agree_labels on one rank ----

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
}

TEST(LabelAgreeTest, ValuesCombinationsAndCountsOnOneRank) {
  label::LabelSpec spec = spec_of({"style", "level"});
  spec.cuts[1] = {0.2, 0.4, 0.6, 0.8};  // very low, low, mid, high, very high
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  using SV = std::vector<std::string_view>;
  EXPECT_EQ(local.add(SV{"zeta", "0.9"}, ids), "");   // 0
  EXPECT_EQ(local.add(SV{"Alpha", "0.3"}, ids), "");  // 1
  EXPECT_EQ(local.add(SV{"beta", "0.7"}, ids), "");   // 2
  EXPECT_EQ(local.add(SV{"zeta", "0.3"}, ids), "");   // 3
  EXPECT_NE(local.add(SV{"only-here", "abc"}, ids), "");  // 4: no label; "only-here" is interned but unused
  local.add_none(ids);                                // 5: a bad line
  EXPECT_EQ(local.add(SV{"zeta", "0.95"}, ids), "");  // 6
  EXPECT_EQ(local.add(SV{"Alpha", "0.25"}, ids), ""); // 7
  const auto values = local.take_values();
  const label::PairLabels labels = label::agree_labels(self(), spec, values, ids);

  const label::LabelSpace& space = labels.space;
  EXPECT_EQ(space.names, (std::vector<std::string>{"style", "level"}));
  // Bytewise ("A" < "b" < "z"); buckets in bucket order, only those present (not "high" < "low").
  EXPECT_EQ(space.values, (std::vector<std::vector<std::string>>{{"Alpha", "beta", "zeta"}, {"low", "high", "very high"}}));
  EXPECT_EQ(space.values_per_label(), (std::vector<std::size_t>{3, 3}));
  EXPECT_EQ(space.combinations(), 9u);
  // k = style * 3 + level
  constexpr auto none = label::kNoCombination;
  EXPECT_EQ(labels.combination_of_pair, (std::vector<std::uint32_t>{8, 0, 4, 6, none, none, 8, 0}));
  EXPECT_EQ(labels.counts, (std::vector<std::uint64_t>{2, 0, 0, 0, 1, 0, 1, 0, 2}));
  EXPECT_EQ(labels.labelled, 6u);
  EXPECT_EQ(space.combination_name(0), "Alpha|low");
  EXPECT_EQ(space.combination_name(5), "beta|very high");
  EXPECT_EQ(space.combination_name(6), "zeta|low");
  EXPECT_EQ(space.marginal_name(0, 2), "zeta|*");
  EXPECT_EQ(space.marginal_name(1, 0), "*|low");
  EXPECT_EQ(space.value_of(7, 0), 2u);
  EXPECT_EQ(space.value_of(7, 1), 1u);
}

TEST(LabelAgreeTest, MixedRadixFirstLabelSlowest) {
  label::LabelSpace space;
  space.names = {"a", "b", "c"};
  space.values = {{"a0", "a1"}, {"b0", "b1", "b2"}, {"c0", "c1"}};
  EXPECT_EQ(space.combinations(), 12u);
  // 11 = (1 * 3 + 2) * 2 + 1; 4 = (0 * 3 + 2) * 2 + 0
  EXPECT_EQ(space.combination_name(11), "a1|b2|c1");
  EXPECT_EQ(space.combination_name(4), "a0|b2|c0");
  EXPECT_EQ(space.combination_name(7), "a1|b0|c1");
  EXPECT_EQ(space.value_of(7, 0), 1u);
  EXPECT_EQ(space.value_of(7, 1), 0u);
  EXPECT_EQ(space.value_of(7, 2), 1u);
  EXPECT_EQ(space.marginal_name(1, 1), "*|b1|*");
  label::LabelSpace one;
  one.names = {"a"};
  one.values = {{"x", "y"}};
  EXPECT_EQ(one.combination_name(1), "y");
  EXPECT_EQ(one.marginal_name(0, 0), "x");
}

TEST(LabelAgreeTest, OneLabelCategorical) {
  const label::LabelSpec spec = spec_of({"source"});
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  for (std::string_view v : {"web", "news", "web", "books", "news", "web"}) {
    const std::string_view raw[] = {v};
    local.add(raw, ids);
  }
  const auto labels = label::agree_labels(self(), spec, local.take_values(), ids);
  EXPECT_EQ(labels.space.values, (std::vector<std::vector<std::string>>{{"books", "news", "web"}}));
  EXPECT_EQ(labels.combination_of_pair, (std::vector<std::uint32_t>{2, 1, 2, 0, 1, 2}));
  EXPECT_EQ(labels.counts, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(labels.labelled, 6u);
}

// Two labels with n_a and n_b values, each pair i of max(n_a, n_b) taking value i of both (mod).
label::PairLabels agree_sizes(std::size_t n_a, std::size_t n_b) {
  const label::LabelSpec spec = spec_of({"a", "b"});
  label::LocalLabels local(spec);
  std::vector<std::uint32_t> ids;
  for (std::size_t i = 0; i < std::max(n_a, n_b); ++i) {
    const std::string a = cat("a", i % n_a), b = cat("b", i % n_b);
    const std::string_view raw[] = {a, b};
    local.add(raw, ids);
  }
  return label::agree_labels(self(), spec, local.take_values(), ids);
}

TEST(LabelAgreeTest, AtMostKMaxCombinations) {
  ASSERT_EQ(label::kMaxCombinations, 65536u);
  const auto at_most = agree_sizes(256, 256);
  EXPECT_EQ(at_most.space.combinations(), 65536u);
  EXPECT_EQ(at_most.counts.size(), 65536u);
  EXPECT_EQ(at_most.labelled, 256u);
  const std::string message = usage_error([] { agree_sizes(256, 257); });
  EXPECT_CONTAINS(message, "more than 65536 combinations");
  EXPECT_CONTAINS(message, "label b has 257 values");
  EXPECT_CONTAINS(usage_error([] { agree_sizes(70000, 1); }), "label a has 70000 values");
}

// ---- labels read with a share ----

struct ReadLabels {
  text::TokenizedShare share;
  std::string path;
};

ReadLabels read_with_labels(const test_support::TempDir& dir, const std::string& text, const pipeline::LabelConfig& options,
                            io::Format format = io::Format::tsv) {
  text::ReadOptions read;
  read.fields.format = format;
  options.apply(read);
  text::Vocabulary vocabulary;
  ReadLabels r;
  r.path = dir.write(format == io::Format::tsv ? "corpus.tsv" : "corpus.jsonl", text);
  r.share = mpi::read_share(self(), io::resolve_inputs({r.path}), read, vocabulary);
  return r;
}

TEST(LabelReadTest, MissingLabelsAreFlagged16BadLinesAre1) {
  test_support::TempDir dir("tdcone_label_test");
  pipeline::LabelConfig options;
  options.cols = "3";
  const auto [share, path] = read_with_labels(dir,
                                              "src one\ttgt one\tformal\n"
                                              "src two\ttgt two\n"         // missing label column 3
                                              "bad line without a tab\n"   // bad: missing column 2
                                              "src four\ttgt four\t  \n"   // empty label column 3
                                              "src five\ttgt five\tcasual\n"
                                              "src six\ttgt six\tformal\n",
                                              options);
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{0, schema::no_label, schema::bad_line, schema::no_label, 0, 0}));
  EXPECT_EQ(share.label_ids, (std::vector<std::uint32_t>{0, kNoValue, kNoValue, kNoValue, 1, 0}));
  EXPECT_EQ(share.label_values, (std::vector<std::vector<std::string>>{{"formal", "casual"}}));
  EXPECT_EQ(share.bad_count, 1u);
  ASSERT_EQ(share.bad_lines.size(), 1u);
  EXPECT_EQ(share.bad_lines[0].pair_id, 2u);
  EXPECT_EQ(share.bad_lines[0].line, 3u);
  EXPECT_EQ(share.bad_lines[0].reason, "missing column 2");
  EXPECT_EQ(share.label_problem_count, 2u);
  ASSERT_EQ(share.label_problems.size(), 2u);
  EXPECT_EQ(share.label_problems[0].pair_id, 1u);
  EXPECT_EQ(share.label_problems[0].file, path);
  EXPECT_EQ(share.label_problems[0].line, 2u);
  EXPECT_EQ(share.label_problems[0].reason, "missing label column 3");
  EXPECT_EQ(share.label_problems[1].pair_id, 3u);
  EXPECT_EQ(share.label_problems[1].line, 4u);
  EXPECT_EQ(share.label_problems[1].reason, "empty label column 3");
  // Flag 16 lines are still pairs: their words are read.
  EXPECT_EQ(share.src_len[1], 2u);
  EXPECT_EQ(share.tgt_len[3], 2u);

  const auto labels = label::agree_labels(self(), spec_of({"col3"}), share.label_values, share.label_ids);
  EXPECT_EQ(labels.space.values, (std::vector<std::vector<std::string>>{{"casual", "formal"}}));
  EXPECT_EQ(labels.combination_of_pair,
            (std::vector<std::uint32_t>{1, label::kNoCombination, label::kNoCombination, label::kNoCombination, 0, 1}));
  EXPECT_EQ(labels.counts, (std::vector<std::uint64_t>{1, 2}));
}

TEST(LabelReadTest, NotANumberUnderBucketsIsFlagged16) {
  test_support::TempDir dir("tdcone_label_test");
  pipeline::LabelConfig options;
  options.cols = "3,4";
  options.names = "kind,level";
  options.buckets = {"level=0.5"};
  const auto [share, path] = read_with_labels(dir,
                                              "a\tb\tx\t0.7\n"
                                              "a\tb\ty\tmuch\n"
                                              "a\tb\tx\t0.5\n"
                                              "a\tb\ty\t0.1\n",
                                              options);
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{0, schema::no_label, 0, 0}));
  EXPECT_EQ(share.label_ids, (std::vector<std::uint32_t>{0, 1, kNoValue, kNoValue, 0, 1, 1, 0}));
  ASSERT_EQ(share.label_problems.size(), 1u);
  EXPECT_EQ(share.label_problems[0].line, 2u);
  EXPECT_CONTAINS(share.label_problems[0].reason, "'much' is not a number");
  EXPECT_EQ(share.bad_count, 0u);
}

TEST(LabelReadTest, JsonlLabels) {
  test_support::TempDir dir("tdcone_label_test");
  pipeline::LabelConfig options;
  options.fields = "style";
  const auto [share, path] = read_with_labels(dir,
                                              R"({"src":"a","tgt":"b","style":"formal"})" "\n"
                                              R"({"src":"a","tgt":"b","style":null})" "\n"
                                              R"({"src":"a","style":"formal"})" "\n"
                                              R"({"src":"a","tgt":"b","style":3})" "\n",
                                              options, io::Format::jsonl);
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{0, schema::no_label, schema::bad_line, 0}));
  EXPECT_EQ(share.label_ids, (std::vector<std::uint32_t>{0, kNoValue, kNoValue, 1}));
  EXPECT_EQ(share.label_values, (std::vector<std::vector<std::string>>{{"formal", "3"}}));
  ASSERT_EQ(share.label_problems.size(), 1u);
  EXPECT_EQ(share.label_problems[0].reason, "label field 'style' is null");
  ASSERT_EQ(share.bad_lines.size(), 1u);
  EXPECT_EQ(share.bad_lines[0].reason, "missing field 'tgt'");
}

TEST(LabelReadTest, WithoutLabelsNothingIsRead) {
  test_support::TempDir dir("tdcone_label_test");
  const auto [share, path] = read_with_labels(dir, "a\tb\tc\nd\te\n", pipeline::LabelConfig{});
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{0, 0}));
  EXPECT_TRUE(share.label_ids.empty());
  EXPECT_TRUE(share.label_values.empty());
  EXPECT_EQ(share.label_problem_count, 0u);
}

// ---- pipeline::LabelConfig ----

text::ReadOptions applied(const pipeline::LabelConfig& options, io::Format format = io::Format::tsv) {
  text::ReadOptions read;
  read.fields.format = format;
  options.apply(read);
  return read;
}

TEST(LabelOptionsTest, DefaultNames) {
  pipeline::LabelConfig options;
  options.cols = "5,6";
  const text::ReadOptions read = applied(options);
  EXPECT_EQ(read.fields.label_cols, (std::vector<int>{5, 6}));
  EXPECT_EQ(read.labels.names, (std::vector<std::string>{"col5", "col6"}));
  EXPECT_EQ(read.labels.cuts, (std::vector<std::vector<double>>(2)));
  EXPECT_EQ(read.fields.label_count(), 2u);

  pipeline::LabelConfig json;
  json.fields = "formality,arousal";
  const text::ReadOptions jread = applied(json, io::Format::jsonl);
  EXPECT_EQ(jread.fields.label_fields, (std::vector<std::string>{"formality", "arousal"}));
  EXPECT_EQ(jread.labels.names, (std::vector<std::string>{"formality", "arousal"}));
  EXPECT_TRUE(jread.fields.label_cols.empty());
}

TEST(LabelOptionsTest, NamesAndBuckets) {
  pipeline::LabelConfig options;
  options.cols = "5,6";
  options.names = "formality,arousal";
  options.buckets = {"6=0.5", "formality=0.2,0.4,0.6,0.8"};
  const text::ReadOptions read = applied(options);
  EXPECT_EQ(read.labels.names, (std::vector<std::string>{"formality", "arousal"}));
  EXPECT_EQ(read.labels.cuts, (std::vector<std::vector<double>>{{0.2, 0.4, 0.6, 0.8}, {0.5}}));
}

std::string options_error(const pipeline::LabelConfig& options, io::Format format = io::Format::tsv) {
  return usage_error([&] { applied(options, format); });
}

TEST(LabelOptionsTest, Errors) {
  pipeline::LabelConfig o;
  o.cols = "5,6";
  o.names = "formality";
  EXPECT_CONTAINS(options_error(o), "--label-names gives 1 names for 2 labels");
  o.names = "a,b,c";
  EXPECT_CONTAINS(options_error(o), "3 names for 2 labels");
  o.names = "a|b,c";
  EXPECT_CONTAINS(options_error(o), "'a|b'");
  o.names = "a,*";
  EXPECT_CONTAINS(options_error(o), "'*'");
  o.names = "same,same";
  EXPECT_CONTAINS(options_error(o), "label 'same' is given twice");
  o.names = "a,,b";
  EXPECT_CONTAINS(options_error(o), "empty item");
  o.names = "";
  o.cols = "5,5";
  EXPECT_CONTAINS(options_error(o), "'col5' is given twice");
  o.cols = "5,x";
  EXPECT_CONTAINS(options_error(o), "'x' is not a column number");
  o.cols = "0";
  EXPECT_CONTAINS(options_error(o), "'0' is not a column number");
  o.cols = "5,";
  EXPECT_CONTAINS(options_error(o), "empty item");
  o.cols = "5";
  o.buckets = {"nolabel=0.5"};
  EXPECT_CONTAINS(options_error(o), "no label named 'nolabel' (the labels: col5)");

  pipeline::LabelConfig fields;
  fields.fields = "style";
  EXPECT_CONTAINS(options_error(fields, io::Format::tsv), "--label-fields is for --format jsonl");
  pipeline::LabelConfig cols;
  cols.cols = "5";
  EXPECT_CONTAINS(options_error(cols, io::Format::jsonl), "--label-cols is for --format tsv");

  pipeline::LabelConfig buckets_alone;
  buckets_alone.buckets = {"x=0.5"};
  EXPECT_CONTAINS(options_error(buckets_alone), "--label-buckets needs --label-cols");
  pipeline::LabelConfig names_alone;
  names_alone.names = "a";
  EXPECT_CONTAINS(options_error(names_alone), "--label-names needs --label-cols");
  // Nothing given: nothing changes.
  const text::ReadOptions read = applied(pipeline::LabelConfig{});
  EXPECT_TRUE(read.fields.label_cols.empty());
  EXPECT_TRUE(read.labels.names.empty());
}

}  // namespace
}  // namespace tdcone
