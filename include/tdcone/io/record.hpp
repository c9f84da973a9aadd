#pragma once
// Parsing one line of a TSV or JSONL corpus into a pair record.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tdcone::io {

/// tsv, jsonl: a pair per line. line: the whole line is the text of both
/// sides (a plain one-sentence-per-line file: a side of --src-file/--tgt-file,
/// a selection input read whole); no score, no id.
enum class Format { tsv, jsonl, line };

/// Where the fields of a pair live. Column numbers are 1-based; 0 = absent.
struct FieldSpec {
  Format format = Format::tsv;
  int src_col = 1;
  int tgt_col = 2;
  int score_col = 0;
  int id_col = 0;
  std::string src_field = "src";
  std::string tgt_field = "tgt";
  std::string score_field;  // empty = absent
  std::string id_field;     // empty = absent
  // Label columns (TSV) or fields (JSONL): a line whose label is missing or
  // unusable is still a pair; the parser reports the label problem apart.
  std::vector<int> label_cols;
  std::vector<std::string> label_fields;
  std::size_t label_count() const {
    return format == Format::tsv ? label_cols.size() : format == Format::jsonl ? label_fields.size() : 0;
  }
  bool has_score() const {
    return format == Format::tsv ? score_col > 0 : format == Format::jsonl && !score_field.empty();
  }
  bool has_id() const { return format == Format::tsv ? id_col > 0 : format == Format::jsonl && !id_field.empty(); }
};

/// How each label's raw values are read: the labels of FieldSpec, named,
/// each taken as given or cut into buckets of a number (label/labels.hpp).
struct LabelSpec {
  std::vector<std::string> names;         // in messages and combination names
  std::vector<std::vector<double>> cuts;  // per label: increasing bucket boundaries; empty: values as given
  std::size_t size() const { return names.size(); }
};

struct Record {
  std::string_view src, tgt, id;  // valid until the next parse() call
  double score = 0.0;
  // The raw label values, in the order of FieldSpec's labels (JSON numbers
  // and booleans as their text), when label_problem is empty; else why the
  // line has no usable label ("missing label column 5"). Valid as src is.
  std::span<const std::string_view> labels;
  std::string_view label_problem;
};

/// A score, or the value of a bucketed label: one finite number, or a
/// judgement "(n,m)" (integers, 0 <= n <= m, m > 0: n of m annotators, as in
/// the Twitter URL corpus) read as n/m; ASCII spaces around it are fine.
/// Returns false for anything else.
bool parse_number(std::string_view text, double& value);

/// Reusable parser (owns buffers, so parse() does not allocate per line).
class RecordParser {
 public:
  explicit RecordParser(FieldSpec spec);
  ~RecordParser();
  RecordParser(const RecordParser&) = delete;
  RecordParser& operator=(const RecordParser&) = delete;

  /// Parses `line`. Returns an empty string on success, otherwise the reason
  /// the line is bad, for the user: "missing column 2", "invalid UTF-8",
  /// "unparsable score 'abc'", "invalid JSON", "missing field 'tgt'", ...;
  /// "empty line" for a bad line of white space only.
  /// src/tgt/id are checked to be valid UTF-8; a score must be a finite number
  /// or "(n,m)" (parse_number; JSON: a number, or a string holding one). A JSONL line must be one
  /// complete, valid JSON object: nothing after it, no error in any field.
  /// Label problems do not make a line bad (see Record::label_problem).
  std::string parse(std::string_view line, Record& out);

  const FieldSpec& spec() const { return spec_; }

 private:
  std::string parse_line(std::string_view line, Record& out);  // parse() but the labels' outcome

  FieldSpec spec_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tdcone::io
