// RecordParser: TSV and JSONL lines into pair records, with the reason for
// every kind of bad line.
#include "tdcone/io/record.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace tdcone::io {
namespace {

FieldSpec tsv(int src_col = 1, int tgt_col = 2, int score_col = 0, int id_col = 0) {
  FieldSpec spec;
  spec.src_col = src_col;
  spec.tgt_col = tgt_col;
  spec.score_col = score_col;
  spec.id_col = id_col;
  return spec;
}

FieldSpec jsonl(std::string score_field = "", std::string id_field = "") {
  FieldSpec spec;
  spec.format = Format::jsonl;
  spec.score_field = std::move(score_field);
  spec.id_field = std::move(id_field);
  return spec;
}

TEST(IoRecordTest, TsvTakesTheConfiguredColumns) {
  RecordParser parser(tsv(3, 1, 2, 4));
  Record r;
  ASSERT_EQ(parser.parse("target side\t0.75\tsource side\tid-7\textra\tcolumns", r), "");
  EXPECT_EQ(r.src, "source side");
  EXPECT_EQ(r.tgt, "target side");
  EXPECT_EQ(r.score, 0.75);
  EXPECT_EQ(r.id, "id-7");
}

TEST(IoRecordTest, TsvEmptySidesAreValid) {
  RecordParser parser(tsv());
  Record r;
  ASSERT_EQ(parser.parse("\t", r), "");
  EXPECT_EQ(r.src, "");
  EXPECT_EQ(r.tgt, "");
  ASSERT_EQ(parser.parse("only src\t", r), "");
  EXPECT_EQ(r.src, "only src");
  EXPECT_EQ(r.tgt, "");
  EXPECT_EQ(r.id, "");
}

TEST(IoRecordTest, TsvMissingColumn) {
  Record r;
  EXPECT_EQ(RecordParser(tsv()).parse("no tab here", r), "missing column 2");
  EXPECT_EQ(RecordParser(tsv()).parse("", r), "empty line");
  EXPECT_EQ(RecordParser(tsv()).parse(" \r", r), "empty line");
  EXPECT_EQ(RecordParser(tsv()).parse(" \t ", r), "");  // two empty columns: not a bad line
  EXPECT_EQ(RecordParser(tsv(1, 2, 5, 3)).parse("a\tb", r), "missing column 3");
  EXPECT_EQ(RecordParser(tsv(1, 2, 5, 3)).parse("a\tb\tc\td", r), "missing column 5");
}

// Lines of every length around the 16-byte steps of the tab search, with tabs,
// a two-byte character and a bad byte anywhere: the columns are the plain
// split's, and only a bad byte in a column read makes the line bad.
TEST(IoRecordTest, TsvColumnsAndUtf8OfEveryShapeOfLine) {
  RecordParser parser(tsv(1, 2, 0, 3));
  std::uint32_t state = 2463534242u;
  const auto next = [&state] {
    state ^= state << 13, state ^= state >> 17, state ^= state << 5;
    return state;
  };
  for (int round = 0; round < 20000; ++round) {
    const std::size_t length = next() % 60;
    std::string line;
    bool bad_byte = false;
    while (line.size() < length) {
      const std::uint32_t pick = next() % 20;
      if (pick == 0) {
        line += '\t';
      } else if (pick == 1) {
        line += "\xc3\xa9";
      } else if (pick == 2 && !bad_byte && round % 4 == 0) {
        line += '\xff';
        bad_byte = true;
      } else {
        line += static_cast<char>('a' + pick);
      }
    }
    std::vector<std::string> columns(1);
    for (char c : line) {
      if (c == '\t')
        columns.emplace_back();
      else
        columns.back().push_back(c);
    }
    Record r;
    const std::string reason = parser.parse(line, r);
    if (columns.size() < 3) {
      EXPECT_EQ(reason, line.find_first_not_of('\t') == std::string::npos
                            ? "empty line"
                            : "missing column " + std::to_string(columns.size() + 1))
          << line;
    } else {
      const bool read_bad = (columns[0] + columns[1] + columns[2]).find('\xff') != std::string::npos;
      ASSERT_EQ(reason, read_bad ? "invalid UTF-8" : "") << line;
      if (read_bad) continue;
      EXPECT_EQ(r.src, columns[0]);
      EXPECT_EQ(r.tgt, columns[1]);
      EXPECT_EQ(r.id, columns[2]);
    }
  }
}

TEST(IoRecordTest, TsvInvalidUtf8) {
  RecordParser parser(tsv(1, 2, 0, 3));
  Record r;
  EXPECT_EQ(parser.parse("caf\xc3\xa9\t\xe2\x82\xac\tid", r), "");
  EXPECT_EQ(parser.parse("bad \xff byte\tok\tid", r), "invalid UTF-8");
  EXPECT_EQ(parser.parse("ok\ttruncated \xe2\x82\tid", r), "invalid UTF-8");
  EXPECT_EQ(parser.parse("ok\tok\t\xc0\xaf", r), "invalid UTF-8");
  EXPECT_EQ(parser.parse("ok\tok\tid\tother column \xff is not checked", r), "");
}

TEST(IoRecordTest, TsvScore) {
  RecordParser parser(tsv(1, 2, 3));
  Record r;
  ASSERT_EQ(parser.parse("a\tb\t-1.5e-3", r), "");
  EXPECT_DOUBLE_EQ(r.score, -1.5e-3);
  ASSERT_EQ(parser.parse("a\tb\t 42 ", r), "");
  EXPECT_EQ(r.score, 42.0);
  EXPECT_EQ(parser.parse("a\tb\tabc", r), "unparsable score 'abc'");
  EXPECT_EQ(parser.parse("a\tb\t0.5x", r), "unparsable score '0.5x'");
  EXPECT_EQ(parser.parse("a\tb\t", r), "unparsable score ''");
  EXPECT_EQ(parser.parse("a\tb\tnan", r), "unparsable score 'nan'");
  EXPECT_EQ(parser.parse("a\tb\tinf", r), "unparsable score 'inf'");
  EXPECT_EQ(parser.parse("a\tb\t1e999", r), "unparsable score '1e999'");
  EXPECT_EQ(parser.parse("a\tb\t" + std::string(100, '7') + "z", r), "unparsable score '" + std::string(40, '7') + "'");
}

TEST(IoRecordTest, JudgementIsTheNumberNOverM) {  // the Twitter URL corpus's "(n,6)"
  double value = -1;
  const std::pair<const char*, double> numbers[] = {{"(4,6)", 4.0 / 6.0}, {"(3,6)", 0.5},       {"(0,6)", 0.0},
                                                    {"(6,6)", 1.0},       {"  (1,3) ", 1.0 / 3.0}, {"(0,1)", 0.0},
                                                    {" 0.25 ", 0.25}};
  for (const auto& [text, expected] : numbers) {
    ASSERT_TRUE(parse_number(text, value)) << text;
    EXPECT_EQ(value, expected) << text;
  }
  for (const char* bad : {"(7,6)", "(1,0)", "(0,0)", "(-1,6)", "(1,-6)", "(+1,6)", "( 1,6)", "(1, 6)", "(1,6", "1,6)",
                          "(1.5,6)", "(1,6.0)", "(1,6,7)", "()", "(,6)", "(1,)", "(1;6)", "(a,6)", "[1,6]", "(1,6)x", "",
                          "nan", "inf"})
    EXPECT_FALSE(parse_number(bad, value)) << bad;

  RecordParser parser(tsv(1, 2, 3));
  Record r;
  ASSERT_EQ(parser.parse("a\tb\t(2,6)\thttp://x", r), "");
  EXPECT_EQ(r.score, 2.0 / 6.0);
  EXPECT_EQ(parser.parse("a\tb\t(7,6)", r), "unparsable score '(7,6)'");
  RecordParser json(jsonl("judgement"));
  ASSERT_EQ(json.parse(R"j({"src": "a", "tgt": "b", "judgement": "(5,6)"})j", r), "");
  EXPECT_EQ(r.score, 5.0 / 6.0);
}

// Plain decimals take a shorter road than std::from_chars: the same doubles,
// bit for bit, for every length up to 17 digits and every place of the point.
TEST(IoRecordTest, PlainDecimalsAreTheDoublesFromCharsGives) {
  std::uint64_t state = 88172645463325252ull;
  const auto next = [&state] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  std::vector<std::string> texts = {"0.1", "0.3", "0.6603", "0.0000", "1", "007", "9007199254740993", "999999999999999",
                                    "0.000000000000001", "123456789012345", "2.2250738585072014", "0.1000000000000000055511"};
  for (int i = 0; i < 200000; ++i) {
    std::string digits;
    const std::size_t length = 1 + next() % 17;
    for (std::size_t k = 0; k < length; ++k) digits += static_cast<char>('0' + next() % 10);
    const std::size_t point = next() % (length + 1);
    texts.push_back(point == 0 || point == length ? digits : digits.substr(0, point) + "." + digits.substr(point));
  }
  for (const std::string& text : texts) {
    double expected = 0, value = -1;
    std::from_chars(text.data(), text.data() + text.size(), expected);
    ASSERT_TRUE(parse_number(text, value)) << text;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(value), std::bit_cast<std::uint64_t>(expected)) << text;
  }
  for (const char* text : {"-0.5", "-0", "5.", ".5", "1e3"}) {
    double expected = 0, value = -1;
    std::from_chars(text, text + std::strlen(text), expected);
    ASSERT_TRUE(parse_number(text, value)) << text;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(value), std::bit_cast<std::uint64_t>(expected)) << text;
  }
  double value = 0;
  for (const char* bad : {"1.2.3", "1..2", "0x10", "1 2", "+1"}) EXPECT_FALSE(parse_number(bad, value)) << bad;
}

TEST(IoRecordTest, JsonlValidLine) {
  RecordParser parser(jsonl("score", "id"));
  Record r;
  ASSERT_EQ(parser.parse(R"({"id": "p1", "src": "a \"quoted\" word", "extra": [1, {"x": 2}], "tgt": "caf\u00e9 \ud83d\ude00", "score": 0.25})", r), "");
  EXPECT_EQ(r.src, "a \"quoted\" word");
  EXPECT_EQ(r.tgt, "caf\xc3\xa9 \xf0\x9f\x98\x80");
  EXPECT_EQ(r.score, 0.25);
  EXPECT_EQ(r.id, "p1");
}

TEST(IoRecordTest, JsonlViewsStayValidUntilTheNextParse) {
  RecordParser parser(jsonl("", "id"));
  Record r;
  std::string line = R"({"src": "escaped\ttab", "tgt": "plain", "id": 12})";
  ASSERT_EQ(parser.parse(line, r), "");
  line.assign(line.size(), '#');  // the parser must not point into the caller's line
  EXPECT_EQ(r.src, "escaped\ttab");
  EXPECT_EQ(r.tgt, "plain");
  EXPECT_EQ(r.id, "12");
}

TEST(IoRecordTest, OneFieldCanBeBothSides) {  // one-sided lines in selection
  FieldSpec spec = jsonl();
  spec.tgt_field = "src";
  RecordParser json(spec);
  Record r;
  ASSERT_EQ(json.parse(R"({"tgt": "other", "src": "the line"})", r), "");
  EXPECT_EQ(r.src, "the line");
  EXPECT_EQ(r.tgt, "the line");
  EXPECT_EQ(r.tgt.data(), r.src.data());  // the same text: tokenized once
  EXPECT_EQ(json.parse(R"({"tgt": "other"})", r), "missing field 'src'");

  RecordParser tsv_one_column(tsv(1, 1));
  ASSERT_EQ(tsv_one_column.parse("only column", r), "");
  EXPECT_EQ(r.src, "only column");
  EXPECT_EQ(r.tgt.data(), r.src.data());
}

TEST(IoRecordTest, JsonlScoreAndIdForms) {
  RecordParser parser(jsonl("s", "id"));
  Record r;
  ASSERT_EQ(parser.parse(R"({"src": "", "tgt": "", "s": "0.5", "id": -3})", r), "");
  EXPECT_EQ(r.src, "");
  EXPECT_EQ(r.tgt, "");
  EXPECT_EQ(r.score, 0.5);
  EXPECT_EQ(r.id, "-3");
  ASSERT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "s": 1, "id": 18446744073709551615})", r), "");
  EXPECT_EQ(r.score, 1.0);
  EXPECT_EQ(r.id, "18446744073709551615");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "s": "high", "id": 1})", r), "unparsable score 'high'");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "s": true, "id": 1})", r), "field 's' is not a number");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "s": 1, "id": 1.5})", r), "field 'id' is not a string or an integer");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "s": 1})", r), "missing field 'id'");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "id": 1})", r), "missing field 's'");
}

TEST(IoRecordTest, JsonlBadLines) {
  RecordParser parser(jsonl());
  Record r;
  EXPECT_EQ(parser.parse(R"({"src": "a"})", r), "missing field 'tgt'");
  EXPECT_EQ(parser.parse(R"({"tgt": "a"})", r), "missing field 'src'");
  EXPECT_EQ(parser.parse(R"({"src": 5, "tgt": "a"})", r), "field 'src' is not a string");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": null})", r), "field 'tgt' is not a string");
  EXPECT_EQ(parser.parse(R"(["src", "tgt"])", r), "not a JSON object");
  EXPECT_EQ(parser.parse(R"("just a string")", r), "not a JSON object");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b")", r), "invalid JSON");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b"} trailing)", r), "invalid JSON");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b"}{})", r), "invalid JSON");
  EXPECT_EQ(parser.parse(R"({src: "a"})", r), "invalid JSON");
  EXPECT_EQ(parser.parse("", r), "empty line");
  EXPECT_EQ(parser.parse("  ", r), "empty line");
  EXPECT_EQ(parser.parse("{\"src\": \"\xff\", \"tgt\": \"b\"}", r), "invalid UTF-8");
  // The parser recovers: a good line after bad ones.
  ASSERT_EQ(parser.parse(R"({"tgt": "y", "src": "x"})", r), "");
  EXPECT_EQ(r.src, "x");
  EXPECT_EQ(r.tgt, "y");
}

TEST(IoRecordTest, JsonlLineMustBeOneCompleteValidObject) {
  // Invalid JSON anywhere in the line makes it bad, also after the needed
  // fields or inside a field nobody reads.
  RecordParser parser(jsonl("score"));
  Record r;
  const std::string fields = R"("src": "a", "tgt": "b", "score": 1)";
  for (const std::string& bad : {"{" + fields + "} trailing", "{" + fields + ",}", "{" + fields + R"(, "x": [1,})",
                                 "{" + fields + R"(, "x": [1,}})", "{" + fields + "}}", "{" + fields + "},",
                                 "{" + fields + R"(, "x": {"k" 1}})", "{" + fields + R"(, "x": [1 2]})",
                                 "{" + fields + R"(, "x": "\q"})", "{" + fields + R"(, "x": tru})",
                                 "{" + fields + R"(, "x": nul})", "{" + fields + R"(, "x": 01})",
                                 "{" + fields + R"(, "x": 1e999})", "{" + fields + ", \"x\": \"raw\ttab\"}",
                                 "{" + fields + R"(, : 1})", "{" + fields + R"(, "x"})", "x{" + fields + "}"}) {
    const std::string reason = parser.parse(bad, r);
    EXPECT_EQ(reason.rfind("invalid JSON", 0), 0u) << bad << " -> '" << reason << "'";
  }
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "score": 1e999})", r), "invalid JSON: a malformed or out-of-range number");
  EXPECT_EQ(parser.parse(R"({"src": "a\q", "tgt": "b", "score": 1})", r), "invalid JSON: a malformed string");
  EXPECT_EQ(parser.parse(R"({"src": "a", "tgt": "b", "score": 1, "x": fals})", r), "invalid JSON: a malformed true, false or null");
  // White space around the object and anything valid in other fields is fine.
  ASSERT_EQ(parser.parse(" \t{" + fields + R"(, "x": [1, -2.5e-3, true, false, null, {"k": ["\u00e9"]}, []]} )", r), "");
  EXPECT_EQ(r.src, "a");
  EXPECT_EQ(r.tgt, "b");
  EXPECT_EQ(r.score, 1.0);
}

}  // namespace
}  // namespace tdcone::io
