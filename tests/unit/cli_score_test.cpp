// tdcone score's command line (cli/score_command.hpp): options parsed into
// ScoreConfig and the names resolved into their enums; a bad value refused
// naming the option.
#include "tdcone/cli/score_command.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_command.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

using Score = test_support::ParsedCommand<ScoreOptions>;

TEST(ScoreCommand, DefaultsAreTheSpecs) {
  Score score("score", add_score_options);
  ASSERT_EQ(score.parse({"--input", "a.tsv", "--output", "o.h5"}), "");
  const jobs::ScoreConfig& c = score.values.config;
  EXPECT_EQ(c.corpus.inputs, (std::vector<std::string>{"a.tsv"}));
  EXPECT_EQ(c.output.output, "o.h5");
  EXPECT_EQ(c.corpus.src_col, 1);
  EXPECT_EQ(c.corpus.tgt_col, 2);
  EXPECT_TRUE(c.corpus.lowercase);
  EXPECT_FALSE(c.corpus.reverse);
  EXPECT_EQ(c.shards, 0u);
  EXPECT_EQ(c.seed, 1u);
  EXPECT_DOUBLE_EQ(c.reference.rel_lambda, 0.1);
  EXPECT_DOUBLE_EQ(c.corpus.max_bad_fraction, 0.5);
  EXPECT_EQ(score.values.shard_by, "hash");
  EXPECT_EQ(score.values.dedup, "none");
  EXPECT_EQ(score.values.corpus.format, "tsv");
  EXPECT_EQ(score.values.output.compression, "deflate");
}

TEST(ScoreCommand, OptionsBecomeTypedValues) {
  Score score("score", add_score_options);
  ASSERT_EQ(score.parse({"--input", "a.tsv", "--input", "b.tsv", "--output", "o.h5", "--shards", "4", "--shard-by",
                         "block", "--seed", "7", "--src-col", "3", "--tgt-col", "1", "--no-lowercase", "--reverse",
                         "--length-buckets", "5,10,20", "--rel-lambda", "0.25", "--format", "jsonl", "--compression",
                         "zstd", "--by-label", "--label-fields", "tone", "--dedup", "tokens"}),
            "");
  const jobs::ScoreConfig& c = score.values.config;
  EXPECT_EQ(c.corpus.inputs, (std::vector<std::string>{"a.tsv", "b.tsv"}));
  EXPECT_EQ(c.shards, 4u);
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(c.corpus.src_col, 3);
  EXPECT_EQ(c.corpus.tgt_col, 1);
  EXPECT_FALSE(c.corpus.lowercase);
  EXPECT_TRUE(c.corpus.reverse);
  EXPECT_EQ(c.length_buckets, (std::vector<std::uint64_t>{5, 10, 20}));
  EXPECT_DOUBLE_EQ(c.reference.rel_lambda, 0.25);
  EXPECT_TRUE(c.by_label);
  EXPECT_EQ(c.labels.fields, "tone");
  EXPECT_EQ(score.values.shard_by, "block");
  EXPECT_EQ(dedup_mode(score.values.dedup), text::DedupMode::tokens);

  config::CorpusConfig corpus = c.corpus;
  score.values.corpus.resolve(corpus);
  EXPECT_EQ(corpus.format, io::Format::jsonl);
  config::OutputConfig output = c.output;
  score.values.output.resolve(output);
  EXPECT_EQ(output.compression, hdf5::Compression::zstd);
}

TEST(ScoreCommand, BadValuesAreRefusedNamingTheOption) {
  Score score("score", add_score_options);
  const std::string shards = score.parse({"--input", "a.tsv", "--output", "o.h5", "--shards", "-1"});
  EXPECT_CONTAINS(shards, "--shards");
  EXPECT_CONTAINS(shards, "-1");
  Score again("score", add_score_options);
  const std::string shard_by = again.parse({"--input", "a.tsv", "--output", "o.h5", "--shard-by", "random"});
  EXPECT_CONTAINS(shard_by, "--shard-by");
  EXPECT_CONTAINS(shard_by, "random");
  Score column("score", add_score_options);
  EXPECT_CONTAINS(column.parse({"--input", "a.tsv", "--output", "o.h5", "--src-col", "0"}), "--src-col");
}

TEST(ScoreCommand, AnUnknownOptionIsRefusedWithWhatItIsASlipOf) {
  Score score("score", add_score_options);
  const std::string message = score.parse({"--input", "a.tsv", "--output", "o.h5", "--shard", "4"});
  EXPECT_CONTAINS(message, "--shard");
  EXPECT_CONTAINS(message, "--shards");
}

}  // namespace
}  // namespace tdcone::cli
