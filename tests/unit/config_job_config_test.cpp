// config::LabelConfig: the label options applied to the read options
// (names, buckets) and their errors.
#include "tdcone/config/job_config.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tdcone/text/tokenized_share.hpp"
#include "usage_error.hpp"

namespace tdcone {
namespace {

using test_support::usage_error;

// ---- config::LabelConfig ----

text::ReadOptions applied(const config::LabelConfig& options, io::Format format = io::Format::tsv) {
  text::ReadOptions read;
  read.fields.format = format;
  options.apply(read);
  return read;
}

TEST(LabelOptionsTest, DefaultNames) {
  config::LabelConfig options;
  options.cols = "5,6";
  const text::ReadOptions read = applied(options);
  EXPECT_EQ(read.fields.label_cols, (std::vector<int>{5, 6}));
  EXPECT_EQ(read.labels.names, (std::vector<std::string>{"col5", "col6"}));
  EXPECT_EQ(read.labels.cuts, (std::vector<std::vector<double>>(2)));
  EXPECT_EQ(read.fields.label_count(), 2u);

  config::LabelConfig json;
  json.fields = "formality,arousal";
  const text::ReadOptions jread = applied(json, io::Format::jsonl);
  EXPECT_EQ(jread.fields.label_fields, (std::vector<std::string>{"formality", "arousal"}));
  EXPECT_EQ(jread.labels.names, (std::vector<std::string>{"formality", "arousal"}));
  EXPECT_TRUE(jread.fields.label_cols.empty());
}

TEST(LabelOptionsTest, NamesAndBuckets) {
  config::LabelConfig options;
  options.cols = "5,6";
  options.names = "formality,arousal";
  options.buckets = {"6=0.5", "formality=0.2,0.4,0.6,0.8"};
  const text::ReadOptions read = applied(options);
  EXPECT_EQ(read.labels.names, (std::vector<std::string>{"formality", "arousal"}));
  EXPECT_EQ(read.labels.cuts, (std::vector<std::vector<double>>{{0.2, 0.4, 0.6, 0.8}, {0.5}}));
}

std::string options_error(const config::LabelConfig& options, io::Format format = io::Format::tsv) {
  return usage_error([&] { applied(options, format); });
}

TEST(LabelOptionsTest, Errors) {
  config::LabelConfig o;
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

  config::LabelConfig fields;
  fields.fields = "style";
  EXPECT_CONTAINS(options_error(fields, io::Format::tsv), "--label-fields is for --format jsonl");
  config::LabelConfig cols;
  cols.cols = "5";
  EXPECT_CONTAINS(options_error(cols, io::Format::jsonl), "--label-cols is for --format tsv");

  config::LabelConfig buckets_alone;
  buckets_alone.buckets = {"x=0.5"};
  EXPECT_CONTAINS(options_error(buckets_alone), "--label-buckets needs --label-cols");
  config::LabelConfig names_alone;
  names_alone.names = "a";
  EXPECT_CONTAINS(options_error(names_alone), "--label-names needs --label-cols");
  // Nothing given: nothing changes.
  const text::ReadOptions read = applied(config::LabelConfig{});
  EXPECT_TRUE(read.fields.label_cols.empty());
  EXPECT_TRUE(read.labels.names.empty());
}

}  // namespace
}  // namespace tdcone
