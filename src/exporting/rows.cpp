#include "tdcone/exporting/rows.hpp"

#include <algorithm>
#include <utility>

#include "tdcone/io/output_guard.hpp"
#include "tdcone/io/zstd_writer.hpp"
#include "tdcone/exporting/format.hpp"
#include "tdcone/results/standard_output.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::exporting {

namespace {

/// Where the text goes: a stream, through the zstd writer (compressed or not);
/// every write checked, so a closed standard output or a full disk stops the export.
class Sink {
 public:
  Sink(std::ostream& out, const std::string& name, bool zstd)
      : out_(out),
        name_(name),
        writer_([this](std::string_view bytes) { put(bytes); }, name, {.compress = zstd, .frame_bytes = 0}) {}

  /// Passes the text of `buffer` on (and empties it).
  void write(std::string& buffer) {
    writer_.write(buffer);
    buffer.clear();
  }
  void finish(std::string& buffer) {
    write(buffer);
    writer_.finish();
    out_.flush();
    results::check_written(out_, name_);
  }

 private:
  void put(std::string_view bytes) {
    out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    results::check_written(out_, name_);
  }

  std::ostream& out_;
  std::string name_;
  io::ZstdWriter writer_;
};

void append_value(std::string& out, const hdf5::Column& column, std::size_t r, bool json) {
  switch (column.kind) {
    case hdf5::Column::Kind::unsigned_integer: append_number(out, column.unsigned_values[r]); break;
    case hdf5::Column::Kind::signed_integer: append_number(out, column.signed_values[r]); break;
    case hdf5::Column::Kind::real: append_number(out, column.real_values[r], json); break;
    case hdf5::Column::Kind::text:
      json ? append_json_string(out, column.text_values[r]) : append_tsv_cell(out, column.text_values[r]);
      break;
  }
}

/// What export asks of the input files for the chosen rows.
struct TextJoin {
  const hdf5::Column* pair_id = nullptr;
  const hdf5::Column* flags = nullptr;
  RunInputs run;
  TextRequest request;
  std::uint64_t id(std::size_t r) const { return pair_id->unsigned_values[r]; }
  bool bad(std::size_t r) const { return flags != nullptr && (flags->unsigned_values[r] & schema::bad_line); }
};

TextJoin plan_join(const ExportConfig& options, const hdf5::Reader& reader, const Table& table,
                   const std::vector<std::size_t>& rows) {
  TextJoin join;
  // /pairs, /balance and /selection name their pair_id and flags columns alike.
  const char *pair_id = schema::pairs::pair_id.name, *flags = schema::pairs::flags.name;
  join.pair_id = &table.columns[table.column(pair_id, Option::text)];
  if (join.pair_id->kind != hdf5::Column::Kind::unsigned_integer)
    throw IoError(cat(options.hdf5, ": ", table.group, "/", pair_id, " is not an unsigned integer column"));
  if (const auto k = table.find(flags); k && table.columns[*k].kind == hdf5::Column::Kind::unsigned_integer)
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
  join.run = recorded_inputs(reader, options.hdf5, options.group == "selection", options.inputs, options.side,
                             options.read_run_config);
  if (!join.run.overridden)  // --input is checked with the other inputs, before any work
    io::refuse_writing_over_inputs(option_name(Option::output), options.output,
                                   {{cat("an input the run recorded, read for ", Option::text), join.run.paths}});
  return join;
}

/// Writes the header and the rows, one at a time.
class RowWriter {
 public:
  RowWriter(const ExportConfig& options, const Table& table, const TextJoin* join, Sink& sink)
      : options_(options), table_(table), join_(join), sink_(sink), json_(options.to == ExportFormat::jsonl) {
    if (options.jaded)
      for (const schema::Column* column : {&schema::selection::rank, &schema::selection::delta_h,
                                           &schema::selection::penalty, &schema::selection::gain,
                                           &schema::selection::cross_entropy, &schema::selection::root_word,
                                           &schema::selection::wge})
        jaded_.push_back(&table.columns[table.column(column->name, Option::jaded)]);
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
    for (const hdf5::Column* column : jaded_) {
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

  const ExportConfig& options_;
  const Table& table_;
  const TextJoin* join_;
  Sink& sink_;
  bool json_;
  std::vector<const hdf5::Column*> jaded_;
  std::vector<std::string> text_names_;
  std::vector<std::string> keys_;
  std::string out_;
};

}  // namespace

void write_rows(const ExportConfig& options, const hdf5::Reader& reader, const Table& table, std::vector<std::size_t> rows,
                std::ostream& out, const std::string& out_name, bool zstd, bool discarded_on_error) {
  Sink sink(out, out_name, zstd);
  if (!(options.text || options.lines_only || options.jaded)) {
    RowWriter writer(options, table, nullptr, sink);
    writer.header();
    for (std::size_t r : rows) writer.row(r, nullptr);
    return writer.finish();
  }
  const TextJoin join = plan_join(options, reader, table, rows);
  if (options.lines_only && options.sort_by.empty() && !options.selected)  // input order; --selected: rank order
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


}  // namespace tdcone::exporting
