#include "tdcone/results/line_accounting.hpp"

#include <algorithm>
#include <cstdio>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/mpi/exchange.hpp"
#include "tdcone/mpi/share_reader.hpp"

namespace tdcone::results {

namespace {

// "a.tsv", "a.tsv, b.tsv", "a.tsv, b.tsv, c.tsv and 4 more files".
std::string file_names(const std::vector<io::InputFile>& files) {
  constexpr std::size_t kNamed = 3;
  std::string names;
  for (std::size_t i = 0; i < files.size() && i < kNamed; ++i) names += (i ? ", " : "") + files[i].path;
  if (files.size() > kNamed) names += cat(" and ", files.size() - kNamed, " more files");
  return names;
}

// "; is a.txt a one-sided file? ...": when at least 9 in 10 of the first bad lines have a single column.
std::string one_sided_hint(const std::vector<text::BadLine>& first, const config::BadLinePolicy& policy) {
  if (policy.two_file_options.empty() || first.empty()) return {};
  const auto one_column = std::ranges::count_if(  // a one-sided file's blank lines are "empty line"
      first, [](const text::BadLine& b) { return b.reason == "missing column 2" || b.reason == "empty line"; });
  if (10 * static_cast<std::size_t>(one_column) < 9 * first.size()) return {};
  return cat("; is ", first[0].file, " a one-sided file (one sentence a line)? for parallel files use ",
             policy.two_file_options);
}

}  // namespace

std::string describe_input(const std::vector<io::InputFile>& files, const std::string& what) {
  return cat(file_names(files), " (", what, ")");
}

std::string first_reasons(const std::vector<text::BadLine>& first) {
  constexpr std::size_t kQuoted = 3;
  std::string text = " (first: ";
  for (std::size_t i = 0; i < first.size() && i < kQuoted; ++i)
    text += cat(i ? "; " : "", first[i].file, ":", first[i].line, ": ", first[i].reason);
  return text + (first.size() > kQuoted ? "; ...)" : ")");
}

std::string encoding_hint(const std::vector<text::BadLine>& first) {
  // Invalid UTF-8 is most often a file in Latin-1 (or Windows-1252): iconv converts it.
  for (const auto& line : first)
    if (line.reason.starts_with("invalid UTF-8"))
      return cat("invalid UTF-8: if ", line.file, " is Latin-1, convert it: iconv -f latin1 -t utf-8 ", line.file, " > ",
                 line.file, ".utf8");
  return "";
}

void list_lines(const std::vector<text::BadLine>& lines) {
  for (const auto& line : lines)
    std::fprintf(stderr, "  %s:%llu: %s\n", line.file.c_str(), (unsigned long long)line.line, line.reason.c_str());
  if (const std::string hint = encoding_hint(lines); !hint.empty()) std::fprintf(stderr, "  (%s)\n", hint.c_str());
}

LineCounts account_lines(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                         const std::vector<io::InputFile>& files, const config::BadLinePolicy& policy, const std::string& what) {
  LineCounts counts;
  counts.lines = share.total_lines;
  counts.flagged = mpi::sum_all<std::uint64_t>(comm, share.bad_count);
  counts.scored = counts.lines - counts.flagged;
  const std::string input = describe_input(files, what);
  // The counts are global: every rank takes the same branch.
  if (counts.lines == 0)
    mpi::fail_everywhere(cat(input, ": no usable line: the input is empty"), 1);
  if (counts.flagged == 0) return counts;
  const auto first = mpi::first_bad_lines(comm, share.bad_lines);
  const auto also = [](const std::string& hint) { return hint.empty() ? "" : "; " + hint; };
  const std::string or_convert = also(encoding_hint(first));
  if (policy.on_bad_line == config::OnBadLine::fail)
    mpi::fail_everywhere(cat(first[0].file, ":", first[0].line, ": ", first[0].reason,
                             " (", Option::on_bad_line, " fail; use ", Option::on_bad_line, " skip to flag such lines and go on)",
                             also(encoding_hint({first[0]}))),
                         1);
  if (counts.scored == 0)
    mpi::fail_everywhere(cat(input, ": no usable line: ", counts.lines == 1 ? "its only line is" : cat("all ", counts.lines, " lines are"),
                             " bad", first_reasons(first), "; check ", policy.hint, one_sided_hint(first, policy), or_convert),
                         1);
  if (static_cast<double>(counts.flagged) > policy.max_bad_fraction * static_cast<double>(counts.lines)) {
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * static_cast<double>(counts.flagged) / static_cast<double>(counts.lines));
    mpi::fail_everywhere(cat(input, ": ", counts.flagged, " of ", counts.lines, " lines are bad (", percent,
                             "), more than ", Option::max_bad_fraction, " ", policy.max_bad_fraction, first_reasons(first),
                             "; check ", policy.hint, ", or raise ", Option::max_bad_fraction, one_sided_hint(first, policy), or_convert),
                         1);
  }
  if (comm.rank() == 0) {
    if (quiet()) {
      std::fprintf(stderr, "tdcone: %llu bad line(s) of %s flagged and skipped (not listed: %s)\n",
                   (unsigned long long)counts.flagged, input.c_str(), option_name(Option::quiet).c_str());
    } else {
      std::fprintf(stderr, "tdcone: %llu bad line(s) of %s flagged and skipped%s:\n", (unsigned long long)counts.flagged,
                   input.c_str(), counts.flagged > first.size() ? ", the first ones" : "");
      list_lines(first);
    }
  }
  return counts;
}

label::PairLabels account_labels(const boost::mpi::communicator& comm, const text::TokenizedShare& share,
                                 const text::ReadOptions& read, const LineCounts& counts, double max_bad_fraction,
                                 const std::string& input) {
  label::PairLabels labels;
  mpi::collective_step(comm, [&] { labels = label::agree_labels(comm, read.labels, share.label_values, share.label_ids); });
  const std::uint64_t problems = mpi::sum_all<std::uint64_t>(comm, share.label_problem_count);
  const auto first = problems ? mpi::first_bad_lines(comm, share.label_problems) : std::vector<text::BadLine>{};
  const Option hint = read.fields.format == io::Format::tsv ? Option::label_cols : Option::label_fields;
  // Global counts: every rank takes the same branch.
  if (labels.labelled == 0)
    mpi::fail_everywhere(cat(input, ": no usable label: none of the ", counts.scored, " usable lines has one",
                             first_reasons(first), "; check ", hint, " and ", Option::label_buckets), 1);
  if (static_cast<double>(problems) > max_bad_fraction * static_cast<double>(counts.scored))
    mpi::fail_everywhere(cat(input, ": ", problems, " of ", counts.scored, " usable lines have no usable label, more than ",
                             Option::max_bad_fraction, " ", max_bad_fraction, first_reasons(first), "; check ", hint,
                             " and ", Option::label_buckets), 1);
  if (comm.rank() != 0) return labels;
  if (problems > 0) {
    std::fprintf(stderr, "tdcone: %llu line(s) of %s have no usable label: flagged 16, scored, in no label combination%s\n",
                 (unsigned long long)problems, input.c_str(),
                 quiet() ? cat(" (not listed: ", Option::quiet, ")").c_str() : ":");
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
                   option_name(hint).c_str());
    }
  }
  return labels;
}

}  // namespace tdcone::results
