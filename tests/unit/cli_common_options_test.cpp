// The options several commands share (cli/common_options.hpp): which corpus
// options each input kind declares, names resolved into the configs' enums,
// --memory and --round-size into bytes, --embeddings refused without --align
// static, and the label, reference, dedup and where options.
#include "tdcone/cli/common_options.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "cli_command.hpp"
#include "tdcone/mpi/guard.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

struct Corpus {
  CorpusModes modes;
  config::CorpusConfig config;
};

// A command with the corpus options of input kind `input` ("required", "columns", "lines").
test_support::ParsedCommand<Corpus> corpus_command(const std::string& input) {
  return test_support::ParsedCommand<Corpus>(
      "score", [&](OptionSet& o, Corpus& c) { c.modes.add_to(o, c.config, input); });
}

bool declares(const test_support::ParsedCommand<Corpus>& command, const std::string& name) {
  return command.sub->get_option_no_throw(name) != nullptr;
}

TEST(CorpusModes, RequiredInputDeclaresTheCorpusFilesAndThePairColumns) {
  auto command = corpus_command("required");
  for (const char* name : {"--input", "--src-file", "--tgt-file", "--score-col", "--id-col", "--score-field",
                           "--id-field", "--reverse", "--src-col", "--tokenizer", "--max-line-bytes"})
    EXPECT_TRUE(declares(command, name)) << name;
  ASSERT_EQ(command.parse({"--input", "a.tsv", "--input", "b.tsv", "--src-col", "3", "--score-col", "4", "--id-col",
                           "5", "--reverse", "--no-lowercase", "--max-bad-fraction", "0.25"}),
            "");
  const config::CorpusConfig& c = command.values.config;
  EXPECT_EQ(c.inputs, (std::vector<std::string>{"a.tsv", "b.tsv"}));
  EXPECT_EQ(c.src_col, 3);
  EXPECT_EQ(c.score_col, 4);
  EXPECT_EQ(c.id_col, 5);
  EXPECT_TRUE(c.reverse);
  EXPECT_FALSE(c.lowercase);
  EXPECT_DOUBLE_EQ(c.max_bad_fraction, 0.25);
}

TEST(CorpusModes, LinesDeclareOnlyHowALinesTextIsRead) {
  auto command = corpus_command("lines");
  for (const char* name : {"--input", "--src-file", "--tgt-file", "--score-col", "--id-col", "--score-field",
                           "--id-field", "--reverse"})
    EXPECT_FALSE(declares(command, name)) << name;
  for (const char* name : {"--format", "--src-col", "--tgt-col", "--src-field", "--tokenizer", "--lowercase",
                           "--on-bad-line", "--max-line-bytes", "--max-bad-fraction"})
    EXPECT_TRUE(declares(command, name)) << name;
  EXPECT_CONTAINS(command.parse({"--reverse"}), "--reverse");
}

TEST(CorpusModes, ColumnsParseSourceFilesButLeaveThemOutOfTheHelp) {
  auto columns = corpus_command("columns");
  ASSERT_EQ(columns.parse({"--src-file", "a.de", "--tgt-file", "a.en"}), "");
  EXPECT_EQ(columns.values.config.src_files, std::vector<std::string>{"a.de"});
  EXPECT_EQ(columns.values.config.tgt_files, std::vector<std::string>{"a.en"});
  EXPECT_EQ(columns.sub->help().find("--src-file"), std::string::npos);
  EXPECT_NE(columns.sub->help().find("--input"), std::string::npos);
  EXPECT_NE(corpus_command("required").sub->help().find("--src-file"), std::string::npos);
}

TEST(CorpusModes, NamesResolveIntoTheirEnums) {
  auto command = corpus_command("required");
  ASSERT_EQ(command.parse({"--input", "a.jsonl", "--format", "jsonl", "--tokenizer", "whitespace", "--on-bad-line",
                           "fail"}),
            "");
  config::CorpusConfig c = command.values.config;
  command.values.modes.resolve(c);
  EXPECT_EQ(c.format, io::Format::jsonl);
  EXPECT_EQ(c.tokenizer, text::TokenizerKind::whitespace);
  EXPECT_EQ(c.on_bad_line, config::OnBadLine::fail);

  config::CorpusConfig defaults;
  defaults.format = io::Format::jsonl, defaults.tokenizer = text::TokenizerKind::whitespace;
  defaults.on_bad_line = config::OnBadLine::fail;
  CorpusModes().resolve(defaults);  // the defaults' names: tsv, punct, skip
  EXPECT_EQ(defaults.format, io::Format::tsv);
  EXPECT_EQ(defaults.tokenizer, text::TokenizerKind::punct);
  EXPECT_EQ(defaults.on_bad_line, config::OnBadLine::skip);
}

TEST(CorpusModes, LinesUpToOneGibibyteMayBeAllowed) {
  EXPECT_EQ(corpus_command("lines").parse({"--max-line-bytes", "1073741824"}), "");
  EXPECT_CONTAINS(corpus_command("lines").parse({"--max-line-bytes", "1073741825"}), "--max-line-bytes");
  EXPECT_CONTAINS(corpus_command("lines").parse({"--max-line-bytes", "0"}), "--max-line-bytes");
  EXPECT_CONTAINS(corpus_command("lines").parse({"--format", "csv"}), "csv is not one of tsv, jsonl");
}

struct Engine {
  EngineModes modes;
  config::EngineSettings config;
};

class EngineOptions : public ::testing::Test {
 protected:
  test_support::ParsedCommand<Engine> command{"score", [](OptionSet& o, Engine& e) { e.modes.add_to(o, e.config); }};
  // The settings resolved on one rank, or the CollectiveError's status and message.
  config::EngineSettings resolved(int* status = nullptr, std::string* message = nullptr) {
    config::EngineSettings settings = command.values.config;
    const boost::mpi::communicator self(MPI_COMM_SELF, boost::mpi::comm_attach);
    try {
      command.values.modes.resolve(self, settings);
    } catch (const mpi::CollectiveError& e) {
      if (status) *status = e.exit_status;
      if (message) *message = e.what();
    }
    return settings;
  }
};

TEST_F(EngineOptions, DefaultsAreUniformAlignmentAndAutomaticSizes) {
  ASSERT_EQ(command.parse({}), "");
  const config::EngineSettings s = resolved();
  EXPECT_EQ(s.align, align::AlignMode::uniform);
  EXPECT_FALSE(s.memory_bytes.has_value());
  EXPECT_EQ(s.round_bytes, 0u);
}

TEST_F(EngineOptions, SizesBecomeBytesAndStaticAlignmentTakesEmbeddings) {
  ASSERT_EQ(command.parse({"--memory", "1500M", "--round-size", "64k", "--align", "static", "--embeddings", "v.txt"}), "");
  int status = 0;
  const config::EngineSettings s = resolved(&status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(s.align, align::AlignMode::embedding);
  EXPECT_EQ(s.memory_bytes, std::uint64_t{1500} << 20);
  EXPECT_EQ(s.round_bytes, 65536u);
  EXPECT_EQ(s.embeddings, "v.txt");
}

TEST_F(EngineOptions, EmbeddingsWithoutStaticAlignmentStopWithStatus2) {
  ASSERT_EQ(command.parse({"--embeddings", "v.txt"}), "");
  int status = 0;
  std::string message;
  resolved(&status, &message);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(message.rfind("--embeddings v.txt is read by --align static only, and the alignment is --align uniform", 0),
            0u)
      << message;
}

TEST_F(EngineOptions, SizesAreCheckedWhenParsed) {
  EXPECT_CONTAINS(command.parse({"--memory", "10"}), "did you mean 10M or 10G?");
  EXPECT_CONTAINS(test_support::ParsedCommand<Engine>(
                      "score", [](OptionSet& o, Engine& e) { e.modes.add_to(o, e.config); })
                      .parse({"--align", "glove"}),
                  "glove is not one of uniform, static");
}

struct Output {
  OutputModes modes;
  config::OutputConfig config;
};

TEST(OutputModes, OutputIsRequiredAndCompressionResolves) {
  const auto add = [](OptionSet& o, Output& out) { out.modes.add_to(o, out.config); };
  test_support::ParsedCommand<Output> none("score", add);
  EXPECT_CONTAINS(none.parse({}), "--output");
  test_support::ParsedCommand<Output> zstd("score", add);
  ASSERT_EQ(zstd.parse({"--output", "o.h5", "--compression", "zstd", "--force"}), "");
  config::OutputConfig c = zstd.values.config;
  zstd.values.modes.resolve(c);
  EXPECT_EQ(c.output, "o.h5");
  EXPECT_TRUE(c.force);
  EXPECT_EQ(c.compression, hdf5::Compression::zstd);
  c.compression = hdf5::Compression::zstd;
  OutputModes{"none"}.resolve(c);
  EXPECT_EQ(c.compression, hdf5::Compression::none);
  OutputModes().resolve(c);
  EXPECT_EQ(c.compression, hdf5::Compression::deflate);
}

TEST(FromName, GivesTheEnumOfANameAndTheFirstForAnyOther) {
  EXPECT_EQ(side_from_name("src"), select::Side::src);
  EXPECT_EQ(side_from_name("tgt"), select::Side::tgt);
  EXPECT_EQ(side_from_name("both"), select::Side::both);
  EXPECT_EQ(dedup_mode("none"), text::DedupMode::none);
  EXPECT_EQ(dedup_mode("exact"), text::DedupMode::exact);
  EXPECT_EQ(dedup_mode("tokens"), text::DedupMode::tokens);
  EXPECT_EQ(dedup_mode("letters"), text::DedupMode::letters);
  EXPECT_EQ(from_name<int>("c", {{"a", 1}, {"b", 2}, {"c", 3}}), 3);
  EXPECT_EQ(from_name<int>("z", {{"a", 1}, {"b", 2}}), 1);
}

struct Shared {
  config::LabelConfig labels;
  config::ReferenceConfig reference;
  std::string dedup = "none";
  exporting::WhereFilter where;
};

test_support::ParsedCommand<Shared> shared_command() {
  return test_support::ParsedCommand<Shared>("balance", [](OptionSet& o, Shared& s) {
    add_label_options(o, s.labels);
    add_reference_options(o, s.reference);
    add_dedup_option(o, s.dedup);
    add_where_options(o, s.where, "Lines", "The rest are left out.");
  });
}

TEST(SharedOptions, LabelsReferenceDedupAndWhereBecomeTheirValues) {
  auto command = shared_command();
  ASSERT_EQ(command.parse({"--label-cols", "5,6", "--label-names", "formality,arousal", "--label-buckets",
                           "5=0.5", "--label-buckets", "6=0.2,0.8", "--reference", "ref.tsv", "--rel-lambda", "0.3",
                           "--dedup", "letters", "--where", "flags.duplicate==0", "--where", "bleu<0.5",
                           "--where-result", "r.h5"}),
            "");
  const Shared& s = command.values;
  EXPECT_EQ(s.labels.cols, "5,6");
  EXPECT_EQ(s.labels.names, "formality,arousal");
  EXPECT_EQ(s.labels.buckets, (std::vector<std::string>{"5=0.5", "6=0.2,0.8"}));
  EXPECT_EQ(s.reference.reference, "ref.tsv");
  EXPECT_DOUBLE_EQ(s.reference.rel_lambda, 0.3);
  EXPECT_EQ(dedup_mode(s.dedup), text::DedupMode::letters);
  EXPECT_EQ(s.where.where, (std::vector<std::string>{"flags.duplicate==0", "bleu<0.5"}));
  EXPECT_EQ(s.where.where_result, "r.h5");
}

TEST(SharedOptions, AWhereTakesOneConditionAnOccurrence) {
  auto command = shared_command();
  // The file after the condition is no second condition: it is refused as a stray argument.
  const std::string message = command.parse({"--where", "bleu<0.5", "r.h5"});
  EXPECT_CONTAINS(message, "r.h5");
  EXPECT_EQ(command.values.where.where, std::vector<std::string>{"bleu<0.5"});
}

TEST(SharedOptions, BadValuesAreRefusedNamingTheOption) {
  EXPECT_CONTAINS(shared_command().parse({"--rel-lambda", "1.5"}), "--rel-lambda");
  EXPECT_CONTAINS(shared_command().parse({"--dedup", "fuzzy"}), "fuzzy is not one of none, exact, tokens, letters");
}

}  // namespace
}  // namespace tdcone::cli
