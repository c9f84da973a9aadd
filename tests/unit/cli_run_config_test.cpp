// A result's recorded configuration read back as its reader settings
// (cli/run_config.hpp): every key it knows, the defaults of keys a run did
// not record, a side, and text that is not TOML refused naming the result.
#include "tdcone/cli/run_config.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_command.hpp"
#include "tdcone/cli/score_command.hpp"
#include "tdcone/core/error.hpp"
#include "usage_error.hpp"

namespace tdcone::cli {
namespace {

TEST(ReadRunSettings, AnEmptyConfigurationKeepsEveryDefault) {
  const exporting::RunSettings s = read_run_settings("", "r.h5");
  const config::CorpusConfig defaults;
  EXPECT_EQ(s.corpus.format, io::Format::tsv);
  EXPECT_EQ(s.corpus.src_col, defaults.src_col);
  EXPECT_EQ(s.corpus.tgt_col, defaults.tgt_col);
  EXPECT_EQ(s.corpus.score_col, 0);
  EXPECT_EQ(s.corpus.id_col, 0);
  EXPECT_EQ(s.corpus.src_field, "src");
  EXPECT_EQ(s.corpus.tgt_field, "tgt");
  EXPECT_EQ(s.corpus.score_field, "");
  EXPECT_FALSE(s.corpus.reverse);
  EXPECT_EQ(s.corpus.max_line_bytes, defaults.max_line_bytes);
  EXPECT_FALSE(s.corpus.parallel());
  EXPECT_EQ(s.side, select::Side::src);
}

TEST(ReadRunSettings, ReadsEveryReaderKeyOfTheRun) {
  const exporting::RunSettings s = read_run_settings(
      "format = 'jsonl'\nsrc-col = 3\ntgt-col = 5\nscore-col = 4\nid-col = 7\n"
      "src-field = 'de'\ntgt-field = 'en'\nscore-field = 'p'\nid-field = 'key'\n"
      "reverse = true\nmax-line-bytes = 5000000000\nside = 'both'\n",
      "r.h5");
  EXPECT_EQ(s.corpus.format, io::Format::jsonl);
  EXPECT_EQ(s.corpus.src_col, 3);
  EXPECT_EQ(s.corpus.tgt_col, 5);
  EXPECT_EQ(s.corpus.score_col, 4);
  EXPECT_EQ(s.corpus.id_col, 7);
  EXPECT_EQ(s.corpus.src_field, "de");
  EXPECT_EQ(s.corpus.tgt_field, "en");
  EXPECT_EQ(s.corpus.score_field, "p");
  EXPECT_EQ(s.corpus.id_field, "key");
  EXPECT_TRUE(s.corpus.reverse);
  EXPECT_EQ(s.corpus.max_line_bytes, 5000000000u);  // beyond 32 bits
  EXPECT_EQ(s.side, select::Side::both);
}

TEST(ReadRunSettings, ASelectionsTargetSideIsRead) {
  EXPECT_EQ(read_run_settings("side = 'tgt'\n", "r.h5").side, select::Side::tgt);
  EXPECT_EQ(read_run_settings("side = 'src'\n", "r.h5").side, select::Side::src);
}

TEST(ReadRunSettings, SourceFilesOnlyTellThatTheCorpusWasParallel) {
  const exporting::RunSettings s = read_run_settings("src-file = ['a.de', 'b.de']\ntgt-file = ['a.en', 'b.en']\n", "r.h5");
  EXPECT_TRUE(s.corpus.parallel());
  EXPECT_EQ(s.corpus.src_files, (std::vector<std::string>{"", ""}));  // as many, their names not kept
  EXPECT_TRUE(s.corpus.inputs.empty());
}

TEST(ReadRunSettings, AValueOfAnotherTypeKeepsTheDefault) {
  const exporting::RunSettings s = read_run_settings("src-col = 'three'\nreverse = 'yes'\nsrc-field = 4\n", "r.h5");
  EXPECT_EQ(s.corpus.src_col, 1);
  EXPECT_FALSE(s.corpus.reverse);
  EXPECT_EQ(s.corpus.src_field, "src");
}

TEST(ReadRunSettings, TextThatIsNotTomlIsAnIoErrorNamingTheResult) {
  const std::string message = test_support::io_error_of([] { read_run_settings("format = = 'tsv'\n", "/runs/r.h5"); });
  EXPECT_EQ(message.rfind("/runs/r.h5: the run's configuration (attribute 'config') is not TOML: ", 0), 0u) << message;
}

// What score records (OptionSet::effective_toml) reads back as the settings it read with.
TEST(ReadRunSettings, ARecordedScoreConfigurationReadsBackAsItsReaderSettings) {
  test_support::ParsedCommand<ScoreOptions> score("score", add_score_options);
  ASSERT_EQ(score.parse({"--input", "a.tsv", "--output", "o.h5", "--src-col", "2", "--tgt-col", "4", "--score-col",
                         "3", "--id-col", "1", "--reverse", "--max-line-bytes", "4096"}),
            "");
  const exporting::RunSettings s = read_run_settings(score.options.effective_toml(), "o.h5");
  EXPECT_EQ(s.corpus.format, io::Format::tsv);
  EXPECT_EQ(s.corpus.src_col, 2);
  EXPECT_EQ(s.corpus.tgt_col, 4);
  EXPECT_EQ(s.corpus.score_col, 3);
  EXPECT_EQ(s.corpus.id_col, 1);
  EXPECT_TRUE(s.corpus.reverse);
  EXPECT_EQ(s.corpus.max_line_bytes, 4096u);
  EXPECT_FALSE(s.corpus.parallel());
}

}  // namespace
}  // namespace tdcone::cli
