// Label columns of a corpus: options, and the report of lines without a usable label.
#include <algorithm>
#include <charconv>
#include <cstdio>

#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/labels.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/mpi/share_reader.hpp"
#include "tdcone/core/guard.hpp"
#include "tdcone/core/progress.hpp"

namespace tdcone::cli {

namespace {

std::vector<std::string> split_list(const std::string& list, const std::string& option) {
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

void LabelOptions::add_to(OptionSet& o) {
  o.add("label-cols", cols, "TSV: 1-based columns of labels, e.g. 5,6 (a style bucket, a classifier's class, a source). "
        "A line whose label is missing, empty or not a number under --label-buckets is flagged 16: it is scored, "
        "but in no label combination");
  o.add("label-fields", fields, "JSONL: fields of labels, e.g. formality,arousal (strings, numbers or booleans)");
  o.add("label-names", names, "Names of the labels, in order (default: the JSONL fields, or col5, col6, ...)");
  o.add("label-buckets", buckets,
        "NAME=CUT,CUT,...: cut a numeric label into buckets (value < first cut: the first bucket; [cut, next cut) the "
        "next). 1-4 cuts name them low/high, low/mid/high, very low/low/high/very high, very low/low/mid/high/very "
        "high; more cuts name them by interval. Repeat for several labels; NAME may be a TSV column number. A value '(n,m)' "
        "reads as n/m: judgement=0.5,0.6 cuts the Twitter URL '(n,6)' into low (n <= 2), mid (n = 3), high (n >= 4)");
}

void LabelOptions::apply(text::ReadOptions& read) const {
  if (!given()) {
    if (!names.empty() || !buckets.empty())
      throw UsageError(cat(names.empty() ? "--label-buckets" : "--label-names", " needs --label-cols (TSV) or --label-fields (JSONL)"));
    return;
  }
  const bool tsv = read.fields.format == io::Format::tsv;
  if (tsv && !fields.empty()) throw UsageError("--label-fields is for --format jsonl; TSV labels are --label-cols");
  if (!tsv && !cols.empty()) throw UsageError("--label-cols is for --format tsv; JSONL labels are --label-fields");
  label::LabelSpec& spec = read.labels;
  if (tsv) {
    for (const std::string& item : split_list(cols, "--label-cols")) {
      int col = 0;
      const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), col);
      if (ec != std::errc() || end != item.data() + item.size() || col < 1)
        throw UsageError(cat("--label-cols '", cols, "': '", item, "' is not a column number (1-based)"));
      read.fields.label_cols.push_back(col);
      spec.names.push_back(cat("col", col));
    }
  } else {
    read.fields.label_fields = split_list(fields, "--label-fields");
    spec.names = read.fields.label_fields;
  }
  if (!names.empty()) {
    const auto given_names = split_list(names, "--label-names");
    if (given_names.size() != spec.names.size())
      throw UsageError(cat("--label-names gives ", given_names.size(), " names for ", spec.names.size(), " labels"));
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

label::PairLabels account_labels(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const text::ReadOptions& read, const LineCounts& counts, double max_bad_fraction,
                                 const std::string& input) {
  label::PairLabels labels;
  mpi::collective_step(comm, [&] { labels = label::agree_labels(comm, read.labels, share.label_values, share.label_ids); });
  const std::uint64_t problems = mpi::sum_all<std::uint64_t>(comm, share.label_problem_count);
  const auto first = problems ? mpi::first_bad_lines(comm, share.label_problems) : std::vector<text::BadLine>{};
  const std::string hint = read.fields.format == io::Format::tsv ? "--label-cols" : "--label-fields";
  // Global counts: every rank takes the same branch.
  if (labels.labelled == 0)
    mpi::fail_everywhere(cat(input, ": no usable label: none of the ", counts.scored, " usable lines has one",
                             first_reasons(first), "; check ", hint, " and --label-buckets"), 1);
  if (static_cast<double>(problems) > max_bad_fraction * static_cast<double>(counts.scored))
    mpi::fail_everywhere(cat(input, ": ", problems, " of ", counts.scored, " usable lines have no usable label, more than "
                             "--max-bad-fraction ", max_bad_fraction, first_reasons(first), "; check ", hint,
                             " and --label-buckets"), 1);
  if (comm.rank() != 0) return labels;
  if (problems > 0) {
    std::fprintf(stderr, "tdcone: %llu line(s) of %s have no usable label: flagged 16, scored, in no label combination%s\n",
                 (unsigned long long)problems, input.c_str(), quiet() ? " (not listed: --quiet)" : ":");
    if (!quiet()) list_lines(first);
  }
  for (std::size_t l = 0; l < labels.space.names.size(); ++l) {
    const std::size_t values = labels.space.values[l].size();
    if (values == 1)
      std::fprintf(stderr, "tdcone: warning: label %s has one value ('%s') on all %llu labelled lines: it splits nothing\n",
                   labels.space.names[l].c_str(), labels.space.values[l][0].c_str(), (unsigned long long)labels.labelled);
    if (label::looks_like_ids(values, labels.labelled)) {
      const std::string where = read.fields.format == io::Format::tsv ? cat("column ", read.fields.label_cols[l])
                                                                       : cat("field '", read.fields.label_fields[l], "'");
      std::fprintf(stderr, "tdcone: warning: label %s (%s) has %zu values over %llu labelled lines, %.1f lines a value: "
                   "an id, a URL or text, not a label? check %s\n", labels.space.names[l].c_str(), where.c_str(), values,
                   (unsigned long long)labels.labelled, static_cast<double>(labels.labelled) / static_cast<double>(values),
                   hint.c_str());
    }
  }
  return labels;
}

}  // namespace tdcone::cli
