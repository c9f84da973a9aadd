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

#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/export_format.hpp"
#include "tdcone/cli/export_text.hpp"
#include "tdcone/cli/export_where.hpp"
#include "tdcone/cli/standard_output.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/output_guard.hpp"
#include "tdcone/io/output_lock.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/core/guard.hpp"
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
  const auto column_named = [&](const std::string& name) -> const h5::Column& {
    return table.columns[table.column(name, "--where")];
  };
  for (const std::string& text : options.where) {
    const RowCondition condition = parse_where(text, column_named, table.group);
    std::erase_if(rows, [&](std::size_t r) { return !condition.holds(r); });
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

  /// Passes the text of `buffer` on (and empties it) once it holds a chunk.
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

/// What export asks of the input files for the chosen rows.
struct TextJoin {
  const h5::Column* pair_id = nullptr;
  const h5::Column* flags = nullptr;
  RunInputs run;
  TextRequest request;
  std::uint64_t id(std::size_t r) const { return pair_id->unsigned_values[r]; }
  bool bad(std::size_t r) const { return flags != nullptr && (flags->unsigned_values[r] & schema::bad_line); }
};

TextJoin plan_join(const ExportOptions& options, const h5::Reader& reader, const Table& table,
                   const std::vector<std::size_t>& rows) {
  TextJoin join;
  join.pair_id = &table.columns[table.column("pair_id", "--text")];
  if (join.pair_id->kind != h5::Column::Kind::unsigned_integer)
    throw IoError(cat(options.hdf5, ": ", table.group, "/pair_id is not an unsigned integer column"));
  if (const auto k = table.find("flags"); k && table.columns[*k].kind == h5::Column::Kind::unsigned_integer)
    join.flags = &table.columns[*k];
  join.request.raw = options.lines_only;
  join.request.fields = options.text || options.jaded;
  std::vector<std::pair<std::uint64_t, bool>> wanted;
  for (std::size_t r : rows) wanted.emplace_back(join.id(r), join.bad(r));
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first; }),
               wanted.end());
  for (const auto& [id, bad] : wanted) {
    join.request.pair_ids.push_back(id);
    join.request.bad.push_back(bad);
  }
  join.run = recorded_inputs(reader, options.hdf5, options.group == "selection", options.inputs, options.side);
  if (!join.run.overridden)  // --input is checked with the other inputs, before any work
    io::refuse_writing_over_inputs("--output", options.output, {{"an input the run recorded, read for --text", join.run.paths}});
  return join;
}

/// Writes the header and the rows, one at a time.
class RowWriter {
 public:
  RowWriter(const ExportOptions& options, const Table& table, const TextJoin* join, Sink& sink)
      : options_(options), table_(table), join_(join), sink_(sink), json_(options.to == "jsonl") {
    if (options.jaded)
      for (const char* name : {"rank", "delta_h", "penalty", "gain", "cross_entropy", "root_word", "wge"})
        jaded_.push_back(&table.columns[table.column(name, "--jaded")]);
    if (options.text) text_names_ = options.group == "selection" ? std::vector<std::string>{"text"}
                                                                 : std::vector<std::string>{"src", "tgt"};
    for (const auto& name : table.names) {  // JSON keys, quoted once
      keys_.emplace_back();
      append_json_string(keys_.back(), name);
      keys_.back() += ':';
    }
  }

  void header() {
    if (options_.lines_only || json_) return;
    if (options_.jaded) {
      out_ = "line_id\trank\tscore\tpenalty\tgain\tcross_entropy\troot_word\twge\ttext\n";
    } else {
      for (std::size_t k = 0; k < table_.names.size(); ++k) out_ += cat(k ? "\t" : "", table_.names[k]);
      for (const auto& name : text_names_) out_ += "\t" + name;
      if (options_.text) out_ += "\traw";
      out_ += '\n';
    }
    sink_.write(out_);
  }

  /// Row `r` of the table; `text`: its line's text (with --text, --lines-only, --jaded).
  void row(std::size_t r, const LineText* text) {
    if (options_.lines_only) {
      out_ += text->raw;
      out_ += '\n';
    } else if (options_.jaded) {
      jaded_row(r, *text);
    } else {
      table_row(r, text);
    }
    sink_.write(out_);
  }

  void finish() { sink_.finish(out_); }

 private:
  void jaded_row(std::size_t r, const LineText& text) {
    append_number(out_, join_->id(r));
    for (const h5::Column* column : jaded_) {
      out_ += '\t';
      append_value(out_, *column, r, false);
    }
    out_ += '\t';
    append_tsv_cell(out_, join_->bad(r) ? std::string_view() : text.src);
    out_ += '\n';
  }

  void table_row(std::size_t r, const LineText* text) {
    if (json_) out_ += '{';
    for (std::size_t k = 0; k < table_.columns.size(); ++k) {
      if (json_) {
        out_ += k ? "," : "";
        out_ += keys_[k];
      } else if (k) {
        out_ += '\t';
      }
      append_value(out_, table_.columns[k], r, json_);
    }
    if (options_.text) {
      const bool bad = join_->bad(r);
      const std::string_view values[2] = {text->src, text->tgt};
      for (std::size_t t = 0; t < text_names_.size(); ++t) {
        if (json_) {
          out_ += ",\"" + text_names_[t] + "\":";
          bad ? void(out_ += "null") : append_json_string(out_, values[t]);
        } else {
          out_ += '\t';
          if (!bad) append_tsv_cell(out_, values[t]);
        }
      }
      if (json_ && bad) {
        out_ += ",\"raw\":";
        append_json_string(out_, text->raw);
      } else if (!json_) {
        out_ += '\t';
        if (bad) append_tsv_cell(out_, text->raw);
      }
    }
    out_ += json_ ? "}\n" : "\n";
  }

  const ExportOptions& options_;
  const Table& table_;
  const TextJoin* join_;
  Sink& sink_;
  bool json_;
  std::vector<const h5::Column*> jaded_;
  std::vector<std::string> text_names_;
  std::vector<std::string> keys_;
  std::string out_;
};

void check_combination(const ExportOptions& o) {
  const bool pairs_like = o.group == "pairs" || o.group == "balance" || o.group == "selection";
  if (o.jaded && o.group != "selection") throw UsageError("--jaded is for --group selection");
  if (o.selected && o.group != "selection") throw UsageError("--selected is for --group selection");
  if (!o.side.empty() && o.group != "selection") throw UsageError("--side is for --group selection");
  if ((o.text || o.lines_only) && !pairs_like)
    throw UsageError(cat("--", o.text ? "text" : "lines-only", " is for --group pairs, balance or selection (/", o.group,
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

// Writes the export to `out`, named `out_name` in messages. `discarded_on_error`:
// `out` is a partial file removed when this throws (not standard output).
void write_export(const ExportOptions& options, std::ostream& out, const std::string& out_name, bool zstd,
                  bool discarded_on_error) {
  check_combination(options);
  const h5::Reader reader(options.hdf5);
  check_tdcone_result(reader, options.hdf5);
  const std::string group = "/" + options.group;
  if (!reader.exists(group)) throw UsageError(cat(options.hdf5, " has no ", group, " table"));
  check_result_table(reader, options.hdf5, group, "export");
  const Table table = read_table(reader, options.hdf5, group);
  std::vector<std::size_t> rows = choose_rows(options, reader, table);
  Sink sink(out, out_name, zstd);
  if (!(options.text || options.lines_only || options.jaded)) {
    RowWriter writer(options, table, nullptr, sink);
    writer.header();
    for (std::size_t r : rows) writer.row(r, nullptr);
    return writer.finish();
  }
  const TextJoin join = plan_join(options, reader, table, rows);
  if (options.lines_only && options.sort_by.empty())  // input order
    std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) { return join.id(a) < join.id(b); });
  RowWriter writer(options, table, &join, sink);
  const bool in_input_order = std::adjacent_find(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
                                return join.id(a) >= join.id(b);
                              }) == rows.end();
  if (in_input_order) {
    // Row k is the k-th line requested: write each as it is read, keeping no
    // text (a whole corpus fits no better in memory than on disk). A file found
    // different only at its end must leave nothing: a partial output file is
    // removed then; standard output cannot be taken back, so for it the inputs
    // are checked first, by a read that keeps nothing.
    TextRequest request = join.request;
    if (!discarded_on_error) {
      read_line_texts(join.run, TextRequest{}, {});
      request.note_unchecked = false;  // said by the first read
    }
    writer.header();
    read_line_texts(join.run, request, [&](std::size_t k, const LineText& text) { writer.row(rows[k], &text); });
  } else {
    const LineTexts texts = load_line_texts(join.run, join.request);
    writer.header();
    for (std::size_t r : rows) {
      const LineText text = texts.text(texts.find(join.id(r)));
      writer.row(r, &text);
    }
  }
  writer.finish();
}

}  // namespace

int run_export(const boost::mpi::communicator& comm, const ExportOptions& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;  // a small serial job; extra ranks wait
    if (options.output == "-") {
      try {
        write_export(options, std::cout, "standard output", false, false);
      } catch (const ReaderGone&) {
        status = kExitReaderGone;
      }
      return;
    }
    h5::check_output_target(options.output, options.force);
    const bool zstd = options.output.size() > 4 && options.output.ends_with(".zst");
    const io::OutputLock lock(options.output);  // as the HDF5 writer: a file of our own, one writer at a time
    const std::string partial = io::create_partial(options.output);
    {
      std::ofstream file(partial, std::ios::binary);
      if (!file) throw IoError(cat("cannot write ", partial));
      try {
        write_export(options, file, options.output, zstd, true);
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
