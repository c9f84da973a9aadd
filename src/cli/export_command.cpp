// tdcone export: a table of an HDF5 result as TSV or JSON lines, filtered,
// sorted, cut to the top N, optionally joined with the input text.
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <numeric>
#include <optional>
#include <regex>

#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/export_format.hpp"
#include "tdcone/cli/export_text.hpp"
#include "tdcone/cli/standard_output.hpp"
#include "tdcone/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::cli {

namespace {

// ---------------------------------------------------------------- the table

struct Table {
  std::string group;  // "/pairs"
  std::vector<std::string> names;
  std::vector<h5::Column> columns;

  std::size_t rows() const { return columns.empty() ? 0 : columns[0].size(); }
  std::optional<std::size_t> find(const std::string& name) const {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? std::nullopt : std::optional<std::size_t>(it - names.begin());
  }
  std::string listing() const {
    std::string list;
    for (const auto& name : names) list += cat(list.empty() ? "" : ", ", name);
    return list;
  }
  std::size_t column(const std::string& name, const std::string& option) const {
    const auto k = find(name);
    if (!k) throw UsageError(cat(option, ": ", group, " has no column '", name, "' (its columns: ", listing(), ")"));
    return *k;
  }
};

// Refuses a table whose columns differ in length: a damaged or hand-made file
// must not be read past the end of its shortest column.
Table read_table(const h5::Reader& reader, const std::string& file, const std::string& group) {
  Table table;
  table.group = group;
  table.names = reader.datasets(group);
  for (const auto& name : table.names) table.columns.push_back(reader.read_column(group + "/" + name));
  const bool same = std::all_of(table.columns.begin(), table.columns.end(),
                                [&](const h5::Column& c) { return c.size() == table.rows(); });
  if (!same) {
    std::string rows;
    for (std::size_t k = 0; k < table.names.size(); ++k)
      rows += cat(k ? ", " : "", table.names[k], " ", table.columns[k].size());
    throw UsageError(cat(file, ": the columns of ", group, " differ in length (rows: ", rows,
                         "): not a complete tdcone result"));
  }
  return table;
}

// ------------------------------------------------------- choosing the rows

struct Condition {
  std::size_t column;
  std::string op;
  long double value;
  bool holds(long double x) const {
    if (std::isnan(x)) return false;  // a NaN never passes
    if (op == "<") return x < value;
    if (op == "<=") return x <= value;
    if (op == ">") return x > value;
    if (op == ">=") return x >= value;
    if (op == "==") return x == value;
    return x != value;
  }
};

Condition parse_condition(const Table& table, const std::string& text) {
  static const std::regex pattern(R"(^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|==|!=|<|>)\s*(\S+)\s*$)");
  std::smatch match;
  if (!std::regex_match(text, match, pattern))
    throw UsageError(cat("--where: '", text, "' is not COLUMN OP NUMBER (OP: < <= > >= == !=), e.g. 'tdcone<0.5'"));
  Condition condition{table.column(match[1], "--where"), match[2], 0};
  if (!table.columns[condition.column].numeric())
    throw UsageError(cat("--where: column '", match[1].str(), "' of ", table.group, " holds text; --where compares numbers"));
  const std::string number = match[3];
  char* end = nullptr;
  condition.value = std::strtold(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || std::isnan(condition.value))
    throw UsageError(cat("--where: '", number, "' in '", text, "' is not a number"));
  return condition;
}

// The rows to write, in order: --selected, --where, --sort-by, --top.
std::vector<std::size_t> choose_rows(const ExportOptions& options, const h5::Reader& reader, const Table& table) {
  std::vector<std::size_t> rows(table.rows());
  std::iota(rows.begin(), rows.end(), 0);
  if (options.selected) {
    const std::uint64_t stop = reader.attribute_uint("/selection", "stop_rank");
    const auto& rank = table.columns[table.column("rank", "--selected")];
    const auto& flags = table.columns[table.column("flags", "--selected")];
    std::erase_if(rows, [&](std::size_t r) { return !(rank.number(r) <= stop && flags.number(r) == 0); });
  }
  for (const std::string& text : options.where) {
    const Condition condition = parse_condition(table, text);
    const h5::Column& column = table.columns[condition.column];
    std::erase_if(rows, [&](std::size_t r) { return !condition.holds(column.number(r)); });
  }
  if (!options.sort_by.empty()) {
    const h5::Column& column = table.columns[table.column(options.sort_by, "--sort-by")];
    const bool down = options.descending;
    if (column.numeric()) {
      std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        const long double x = column.number(a), y = column.number(b);
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);  // NaN last
        return down ? x > y : x < y;
      });
    } else {
      const auto& text = column.text_values;
      std::stable_sort(rows.begin(), rows.end(),
                       [&](std::size_t a, std::size_t b) { return down ? text[a] > text[b] : text[a] < text[b]; });
    }
  }
  if (options.top > 0 && rows.size() > options.top) rows.resize(options.top);
  return rows;
}

// ------------------------------------------------------------------ output

/// Where the text goes: a stream, zstd-compressed or not; every write checked.
class Sink {
 public:
  Sink(std::ostream& out, std::string name, bool zstd) : out_(out), name_(std::move(name)) {
    if (!zstd) return;
    context_ = ZSTD_createCCtx();
    if (context_ == nullptr) throw IoError("cannot start zstd compression");
    ZSTD_CCtx_setParameter(context_, ZSTD_c_compressionLevel, 3);
  }
  ~Sink() { ZSTD_freeCCtx(context_); }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  /// Takes the text of `buffer` (and empties it).
  void write(std::string& buffer) {
    if (buffer.size() >= kChunk) flush(buffer, ZSTD_e_continue);
  }
  void finish(std::string& buffer) {
    flush(buffer, ZSTD_e_end);
    out_.flush();
    check_written(out_, name_);
  }

 private:
  static constexpr std::size_t kChunk = 1 << 20;

  void flush(std::string& buffer, ZSTD_EndDirective mode) {
    if (context_ == nullptr) {
      out_.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    } else {
      compressed_.resize(ZSTD_CStreamOutSize());
      ZSTD_inBuffer in{buffer.data(), buffer.size(), 0};
      for (;;) {
        ZSTD_outBuffer out{compressed_.data(), compressed_.size(), 0};
        const std::size_t left = ZSTD_compressStream2(context_, &out, &in, mode);
        if (ZSTD_isError(left)) throw IoError(cat("cannot compress ", name_, ": ", ZSTD_getErrorName(left)));
        out_.write(compressed_.data(), static_cast<std::streamsize>(out.pos));
        if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size) break;
      }
    }
    buffer.clear();
    check_written(out_, name_);
  }

  std::ostream& out_;
  std::string name_;
  ZSTD_CCtx* context_ = nullptr;
  std::string compressed_;
};

void append_value(std::string& out, const h5::Column& column, std::size_t r, bool json) {
  switch (column.kind) {
    case h5::Column::Kind::unsigned_integer: append_number(out, column.unsigned_values[r]); break;
    case h5::Column::Kind::signed_integer: append_number(out, column.signed_values[r]); break;
    case h5::Column::Kind::real: append_number(out, column.real_values[r], json); break;
    case h5::Column::Kind::text:
      json ? append_json_string(out, column.text_values[r]) : append_tsv_cell(out, column.text_values[r]);
      break;
  }
}

/// The text of the rows, when asked for: requested from the input files once.
struct JoinedText {
  std::optional<LineTexts> texts;
  const h5::Column* pair_id = nullptr;
  const h5::Column* flags = nullptr;
  std::size_t entry(std::size_t r) const { return texts->find(pair_id->unsigned_values[r]); }
  bool bad(std::size_t r) const { return flags != nullptr && (flags->unsigned_values[r] & text::bad_line); }
};

JoinedText join_text(const ExportOptions& options, const h5::Reader& reader, const Table& table,
                     const std::vector<std::size_t>& rows) {
  JoinedText joined;
  const bool selection = options.group == "selection";
  const std::size_t id_column = table.column("pair_id", "--text");
  joined.pair_id = &table.columns[id_column];
  if (joined.pair_id->kind != h5::Column::Kind::unsigned_integer)
    throw IoError(cat(options.hdf5, ": ", table.group, "/pair_id is not an unsigned integer column"));
  if (const auto k = table.find("flags"); k && table.columns[*k].kind == h5::Column::Kind::unsigned_integer)
    joined.flags = &table.columns[*k];
  TextRequest request;
  request.raw = options.lines_only;
  request.fields = options.text || options.jaded;
  std::vector<std::pair<std::uint64_t, bool>> wanted;
  for (std::size_t r : rows) wanted.emplace_back(joined.pair_id->unsigned_values[r], joined.bad(r));
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first; }),
               wanted.end());
  for (const auto& [id, bad] : wanted) {
    request.pair_ids.push_back(id);
    request.bad.push_back(bad);
  }
  const RunInputs run = recorded_inputs(reader, options.hdf5, selection, options.inputs, options.side);
  joined.texts.emplace(load_line_texts(run, request));
  return joined;
}

void write_jaded(const Table& table, const std::vector<std::size_t>& rows, const JoinedText& joined, Sink& sink) {
  std::vector<const h5::Column*> columns;
  for (const char* name : {"rank", "delta_h", "penalty", "gain", "cross_entropy", "root_word", "wge"})
    columns.push_back(&table.columns[table.column(name, "--jaded")]);
  std::string out = "line_id\trank\tscore\tpenalty\tgain\tcross_entropy\troot_word\twge\ttext\n";
  for (std::size_t r : rows) {
    append_number(out, joined.pair_id->unsigned_values[r]);
    for (const h5::Column* column : columns) {
      out += '\t';
      append_value(out, *column, r, false);
    }
    out += '\t';
    append_tsv_cell(out, joined.bad(r) ? std::string_view() : joined.texts->src(joined.entry(r)));
    out += '\n';
    sink.write(out);
  }
  sink.finish(out);
}

void write_lines(const std::vector<std::size_t>& rows, const JoinedText& joined, Sink& sink) {
  std::string out;
  for (std::size_t r : rows) {
    out += joined.texts->raw(joined.entry(r));
    out += '\n';
    sink.write(out);
  }
  sink.finish(out);
}

void write_rows(const ExportOptions& options, const Table& table, const std::vector<std::size_t>& rows,
                const JoinedText* joined, Sink& sink) {
  const bool json = options.to == "jsonl";
  const bool selection = options.group == "selection";
  std::vector<std::string> text_names;
  if (joined != nullptr) text_names = selection ? std::vector<std::string>{"text"} : std::vector<std::string>{"src", "tgt"};
  // JSON keys, quoted once.
  std::vector<std::string> keys;
  for (const auto& name : table.names) {
    keys.emplace_back();
    append_json_string(keys.back(), name);
    keys.back() += ':';
  }
  std::string out;
  if (!json) {
    for (std::size_t k = 0; k < table.names.size(); ++k) out += cat(k ? "\t" : "", table.names[k]);
    for (const auto& name : text_names) out += "\t" + name;
    if (joined != nullptr) out += "\traw";
    out += '\n';
  }
  for (std::size_t r : rows) {
    if (json) out += '{';
    for (std::size_t k = 0; k < table.columns.size(); ++k) {
      if (json) {
        out += k ? "," : "";
        out += keys[k];
      } else if (k) {
        out += '\t';
      }
      append_value(out, table.columns[k], r, json);
    }
    if (joined != nullptr) {
      const std::size_t e = joined->entry(r);
      const bool bad = joined->bad(r);
      const std::string_view values[2] = {joined->texts->src(e), joined->texts->tgt(e)};
      for (std::size_t t = 0; t < text_names.size(); ++t) {
        if (json) {
          out += ",\"" + text_names[t] + "\":";
          bad ? void(out += "null") : append_json_string(out, values[t]);
        } else {
          out += '\t';
          if (!bad) append_tsv_cell(out, values[t]);
        }
      }
      if (json) {
        if (bad) {
          out += ",\"raw\":";
          append_json_string(out, joined->texts->raw(e));
        }
      } else {
        out += '\t';
        if (bad) append_tsv_cell(out, joined->texts->raw(e));
      }
    }
    out += json ? "}\n" : "\n";
    sink.write(out);
  }
  sink.finish(out);
}

void check_combination(const ExportOptions& o) {
  const bool pairs_like = o.group == "pairs" || o.group == "selection";
  if (o.jaded && o.group != "selection") throw UsageError("--jaded is for --group selection");
  if (o.selected && o.group != "selection") throw UsageError("--selected is for --group selection");
  if (!o.side.empty() && o.group != "selection") throw UsageError("--side is for --group selection");
  if ((o.text || o.lines_only) && !pairs_like)
    throw UsageError(cat("--", o.text ? "text" : "lines-only", " is for --group pairs or selection (/", o.group,
                         " has no input lines)"));
  if (o.lines_only && (o.text || o.jaded || o.to != "tsv"))
    throw UsageError("--lines-only writes only the input lines: not with --text, --jaded or --to");
  if (o.jaded && o.to != "tsv") throw UsageError("--jaded writes its classic TSV: not with --to jsonl");
  if (!o.inputs.empty() && !o.text && !o.lines_only && !o.jaded)
    throw UsageError("--input says where the text is: give it with --text, --lines-only or --jaded");
  if (o.ascending && o.descending) throw UsageError("--ascending and --descending: give one of them");
  if ((o.ascending || o.descending) && o.sort_by.empty())
    throw UsageError(cat("--", o.ascending ? "ascending" : "descending", " orders --sort-by: give a column to sort by"));
}

// Writes the export to `out`, named `out_name` in messages.
void write_export(const ExportOptions& options, std::ostream& out, const std::string& out_name, bool zstd) {
  check_combination(options);
  const h5::Reader reader(options.hdf5);
  const std::string group = "/" + options.group;
  if (!reader.exists(group)) throw UsageError(cat(options.hdf5, " has no ", group, " table"));
  const Table table = read_table(reader, options.hdf5, group);
  std::vector<std::size_t> rows = choose_rows(options, reader, table);
  const bool with_text = options.text || options.lines_only || options.jaded;
  std::optional<JoinedText> joined;
  if (with_text) {
    joined = join_text(options, reader, table, rows);
    if (options.lines_only && options.sort_by.empty())  // input order
      std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        return joined->pair_id->unsigned_values[a] < joined->pair_id->unsigned_values[b];
      });
  }
  Sink sink(out, out_name, zstd);
  if (options.jaded) return write_jaded(table, rows, *joined, sink);
  if (options.lines_only) return write_lines(rows, *joined, sink);
  write_rows(options, table, rows, options.text ? &*joined : nullptr, sink);
}

}  // namespace

int run_export(const boost::mpi::communicator& comm, const ExportOptions& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;  // a small serial job; extra ranks wait
    if (options.output == "-") {
      try {
        write_export(options, std::cout, "standard output", false);
      } catch (const ReaderGone&) {
        status = kExitReaderGone;
      }
      return;
    }
    h5::check_output_target(options.output, options.force);
    const bool zstd = options.output.size() > 4 && options.output.ends_with(".zst");
    const std::string partial = options.output + ".partial";
    {
      std::ofstream file(partial, std::ios::binary);
      if (!file) throw IoError(cat("cannot write ", partial));
      try {
        write_export(options, file, options.output, zstd);
        file.close();
        check_written(file, options.output);
      } catch (...) {
        file.close();
        std::remove(partial.c_str());
        throw;
      }
    }
    if (std::rename(partial.c_str(), options.output.c_str()) != 0) throw IoError(cat("cannot rename to ", options.output));
  });
  return status;
}

}  // namespace tdcone::cli
