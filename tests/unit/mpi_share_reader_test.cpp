// Labels read with a share (mpi::read_share): a missing or unusable label flags
// the pair 16, a bad line 1; without labels nothing is read.
#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/io/input_files.hpp"
#include "tdcone/label/labels.hpp"
#include "tdcone/mpi/share_reader.hpp"
#include "tdcone/config/job_config.hpp"
#include "tdcone/text/tokenized_share.hpp"
#include "temp_files.hpp"
#include "usage_error.hpp"

namespace tdcone {
namespace {

namespace bmpi = boost::mpi;
using label::kNoValue;

const bmpi::communicator& self() {
  static const bmpi::communicator comm(MPI_COMM_SELF, bmpi::comm_attach);
  return comm;
}

// ---- labels read with a share ----

struct ReadLabels {
  text::TokenizedShare share;
  std::string path;
};

ReadLabels read_with_labels(const test_support::TempDir& dir, const std::string& text, const config::LabelConfig& options,
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
  config::LabelConfig options;
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

  io::LabelSpec spec;
  spec.names = {"col3"};
  spec.cuts.assign(1, {});
  const auto labels = label::agree_labels(self(), spec, share.label_values, share.label_ids);
  EXPECT_EQ(labels.space.values, (std::vector<std::vector<std::string>>{{"casual", "formal"}}));
  EXPECT_EQ(labels.combination_of_pair,
            (std::vector<std::uint32_t>{1, label::kNoCombination, label::kNoCombination, label::kNoCombination, 0, 1}));
  EXPECT_EQ(labels.counts, (std::vector<std::uint64_t>{1, 2}));
}

TEST(LabelReadTest, NotANumberUnderBucketsIsFlagged16) {
  test_support::TempDir dir("tdcone_label_test");
  config::LabelConfig options;
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
  config::LabelConfig options;
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
  const auto [share, path] = read_with_labels(dir, "a\tb\tc\nd\te\n", config::LabelConfig{});
  EXPECT_EQ(share.flags, (std::vector<std::uint8_t>{0, 0}));
  EXPECT_TRUE(share.label_ids.empty());
  EXPECT_TRUE(share.label_values.empty());
  EXPECT_EQ(share.label_problem_count, 0u);
}

}  // namespace
}  // namespace tdcone
