// Labels of pairs: bucket names and --label-buckets, value interning
// (LocalLabels), and agreement on one rank (values, mixed-radix combinations,
// counts). Every expected value is worked out by hand.
#include "tdcone/label/labels.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/io/record.hpp"
#include "usage_error.hpp"

namespace tdcone {
namespace {

namespace bmpi = boost::mpi;
using label::kNoValue;
using test_support::usage_error;

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
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

io::LabelSpec spec_of(std::vector<std::string> names) {
  io::LabelSpec spec;
  spec.names = std::move(names);
  spec.cuts.assign(spec.names.size(), {});
  return spec;
}

TEST(LabelBucketsTest, ByNameAndByColumnNumber) {
  io::LabelSpec spec = spec_of({"formality", "arousal", "source"});
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
  io::LabelSpec spec = spec_of({"formality", "arousal"});
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
  const io::LabelSpec spec = spec_of({"a", "b"});
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
  io::LabelSpec spec = spec_of({"level"});
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
  io::LabelSpec spec = spec_of({"judgement"});
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
  io::LabelSpec spec = spec_of({"kind", "level"});
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
  io::LabelSpec spec = spec_of({"kind", "level"});
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


TEST(LabelAgreeTest, ValuesCombinationsAndCountsOnOneRank) {
  io::LabelSpec spec = spec_of({"style", "level"});
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
  const io::LabelSpec spec = spec_of({"source"});
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
  const io::LabelSpec spec = spec_of({"a", "b"});
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

}  // namespace
}  // namespace tdcone
