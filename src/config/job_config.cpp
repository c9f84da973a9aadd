#include "tdcone/config/job_config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>

#include "tdcone/core/error.hpp"
#include "tdcone/label/labels.hpp"

namespace tdcone::config {

namespace {

std::vector<std::string> split_list(const std::string& list, Option option) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    items.push_back(list.substr(start, comma == std::string::npos ? comma : comma - start));
    if (items.back().empty()) throw UsageError(cat(option, " '", list, "': an empty item (expected A,B,...)"));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

}  // namespace

std::string format_name(io::Format format) { return format == io::Format::jsonl ? "jsonl" : "tsv"; }

std::string tokenizer_name(text::TokenizerKind kind) {
  return kind == text::TokenizerKind::whitespace ? "whitespace" : "punct";
}

BadLinePolicy CorpusConfig::bad_line_policy() const {
  BadLinePolicy policy;
  policy.on_bad_line = on_bad_line;
  policy.max_bad_fraction = max_bad_fraction;
  policy.hint = format == io::Format::jsonl
                    ? cat(Option::format, " (jsonl here: one JSON object a line) and ", Option::src_field, "/",
                          Option::tgt_field, "/", Option::score_field, "/", Option::id_field)
                    : cat(Option::format, " (tsv here: tab-separated columns) and ", Option::src_col, "/",
                          Option::tgt_col, "/", Option::score_col, "/", Option::id_col);
  return policy;
}

void CorpusConfig::check_sources() const {
  if (!parallel()) {
    if (inputs.empty())
      throw UsageError(cat("no corpus: give ", Option::input, " FILE..., or ", Option::src_file, " FILE... with ",
                           Option::tgt_file, " FILE..."));
    return;
  }
  if (!inputs.empty())
    throw UsageError(cat(Option::input, " and ", Option::src_file, "/", Option::tgt_file,
                         " both name a corpus: give one or the other"));
  if (src_files.empty() || tgt_files.empty())
    throw UsageError(src_files.empty() ? cat(Option::tgt_file, " needs ", Option::src_file, " (the input side of its lines)")
                                       : cat(Option::src_file, " needs ", Option::tgt_file, " (the output side of its lines)"));
  const auto refuse = [](const std::string& option) {
    throw UsageError(cat(option, " does not apply to ", Option::src_file, "/", Option::tgt_file, ": their lines are "
                         "whole sides (no columns, fields, score or id); paste them into one TSV for that"));
  };
  if (format != io::Format::tsv) refuse(cat(Option::format, " ", format_name(format)));
  if (src_col != 1) refuse(option_name(Option::src_col));
  if (tgt_col != 2) refuse(option_name(Option::tgt_col));
  if (score_col != 0) refuse(option_name(Option::score_col));
  if (id_col != 0) refuse(option_name(Option::id_col));
  if (!score_field.empty()) refuse(option_name(Option::score_field));
  if (!id_field.empty()) refuse(option_name(Option::id_field));
}

void ReferenceConfig::check_sources() const {
  if (!parallel()) return;
  if (!reference.empty())
    throw UsageError(cat(Option::reference, " and ", Option::reference_src_file, "/", Option::reference_tgt_file,
                         " both name a reference: give one or the other"));
  if (src_files.empty() || tgt_files.empty())
    throw UsageError(src_files.empty() ? cat(Option::reference_tgt_file, " needs ", Option::reference_src_file,
                                             " (the input side of its lines)")
                                       : cat(Option::reference_src_file, " needs ", Option::reference_tgt_file,
                                             " (the output side of its lines)"));
}

text::ReadOptions CorpusConfig::read_options() const {
  text::ReadOptions r;
  r.fields.format = format;
  r.fields.src_col = src_col;
  r.fields.tgt_col = tgt_col;
  r.fields.score_col = score_col;
  r.fields.id_col = id_col;
  r.fields.src_field = src_field;
  r.fields.tgt_field = tgt_field;
  r.fields.score_field = score_field;
  r.fields.id_field = id_field;
  r.tokenizer.kind = tokenizer;
  r.tokenizer.lowercase = lowercase;
  r.reverse = reverse;
  r.max_line_bytes = max_line_bytes;
  r.dedup = dedup;
  return r;
}

text::ReadOptions CorpusConfig::line_read_options(select::Side side) const {
  text::ReadOptions r = read_options();
  if (side == select::Side::src) {
    r.fields.tgt_col = r.fields.src_col;
    r.fields.tgt_field = r.fields.src_field;
  } else if (side == select::Side::tgt) {
    r.fields.src_col = r.fields.tgt_col;
    r.fields.src_field = r.fields.tgt_field;
  }
  return r;
}

void OutputConfig::check_target(bool warn) const {
  hdf5::check_output_target(output, force);
  std::string extension = std::filesystem::path(output).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (warn && extension != ".h5" && extension != ".hdf5" && extension != ".he5")
    std::fprintf(stderr, "tdcone: warning: %s %s: tdcone writes an HDF5 file whatever its name; name it .h5, "
                 "and `tdcone export RESULT.h5 %s FILE.tsv` writes a table of it as TSV\n",
                 option_name(Option::output).c_str(), output.c_str(), option_name(Option::output).c_str());
}

void LabelConfig::apply(text::ReadOptions& read) const {
  if (!given()) {
    if (!names.empty() || !buckets.empty())
      throw UsageError(cat(names.empty() ? Option::label_buckets : Option::label_names, " needs ", Option::label_cols,
                           " (TSV) or ", Option::label_fields, " (JSONL)"));
    return;
  }
  const bool tsv = read.fields.format == io::Format::tsv;
  if (tsv && !fields.empty())
    throw UsageError(cat(Option::label_fields, " is for ", Option::format, " jsonl; TSV labels are ", Option::label_cols));
  if (!tsv && !cols.empty())
    throw UsageError(cat(Option::label_cols, " is for ", Option::format, " tsv; JSONL labels are ", Option::label_fields));
  io::LabelSpec& spec = read.labels;
  if (tsv) {
    for (const std::string& item : split_list(cols, Option::label_cols)) {
      int col = 0;
      const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), col);
      if (ec != std::errc() || end != item.data() + item.size() || col < 1)
        throw UsageError(cat(Option::label_cols, " '", cols, "': '", item, "' is not a column number (1-based)"));
      read.fields.label_cols.push_back(col);
      spec.names.push_back(cat("col", col));
    }
  } else {
    read.fields.label_fields = split_list(fields, Option::label_fields);
    spec.names = read.fields.label_fields;
  }
  if (!names.empty()) {
    const auto given_names = split_list(names, Option::label_names);
    if (given_names.size() != spec.names.size())
      throw UsageError(cat(Option::label_names, " gives ", given_names.size(), " names for ", spec.names.size(), " labels"));
    spec.names = given_names;
  }
  for (std::size_t i = 0; i < spec.names.size(); ++i) {
    if (spec.names[i].find('|') != std::string::npos || spec.names[i] == "*")
      throw UsageError(cat("label name '", spec.names[i], "': '|' and '*' name combinations; choose another name"));
    if (std::count(spec.names.begin(), spec.names.end(), spec.names[i]) > 1)
      throw UsageError(cat("label '", spec.names[i], "' is given twice"));
  }
  label::parse_buckets(buckets, read.fields.label_cols, spec);
  read.label_interner = label::local_labels;
}

}  // namespace tdcone::config
