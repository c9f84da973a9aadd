// tdcone export: an HDF5 table as TSV, optionally joined with the input text.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <fstream>
#include <iostream>
#include <sstream>

#include <toml++/toml.h>

#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/standard_output.hpp"
#include "tdcone/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/mpi/guard.hpp"

namespace tdcone::cli {

namespace {

/// src and tgt text of every input line, by pair_id (bad lines: empty), read
/// as pairs ("pair") or as selection reads lines of a side.
std::vector<std::pair<std::string, std::string>> load_texts(const CorpusOptions& corpus, const std::string& side) {
  const auto files = io::resolve_inputs(corpus.inputs);
  const auto read = side == "pair" ? corpus.read_options() : corpus.line_read_options(side);
  io::RecordParser parser(read.fields);
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& segment : io::plan_share(files, 0, 1)) {
    io::LineReader reader(files[segment.file], segment, read.max_line_bytes);
    io::Line line;
    io::Record record;
    while (reader.next(line)) {
      if (!line.too_long && parser.parse(line.text, record).empty())
        texts.emplace_back(record.src, record.tgt);
      else
        texts.emplace_back();
    }
  }
  return texts;
}

// The text of a selection's line: --side, else the side the run selected on.
std::string selection_side(const ExportOptions& options, const h5::Reader& reader) {
  if (!options.side.empty()) return options.side;
  const auto config = toml::parse(reader.attribute_string("/", "config"));
  return config["side"].value_or(std::string("src"));
}

std::string line_text(const std::pair<std::string, std::string>& text, const std::string& side) {
  return side == "tgt" ? text.second : side == "both" ? text.first + " " + text.second : text.first;
}

// Refuses a table whose columns differ in length: a damaged or hand-made file
// must not be read past the end of its shortest column.
void check_lengths(const std::string& file, const std::string& group, const std::vector<std::string>& names,
                   const std::vector<std::size_t>& lengths) {
  if (std::adjacent_find(lengths.begin(), lengths.end(), std::not_equal_to<>()) == lengths.end()) return;
  std::string rows;
  for (std::size_t k = 0; k < names.size(); ++k) rows += cat(k ? ", " : "", names[k], " ", lengths[k]);
  throw UsageError(cat(file, ": the columns of ", group, " differ in length (rows: ", rows,
                       "): not a complete tdcone result"));
}

// TSV cells must not contain tabs or newlines.
std::string cell(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return text;
}

// The classic cynical-selection ("jaded") table: one line per AVAIL line in selection order.
// The text comes from --input, else from the AVAIL files the run recorded; the side likewise.
void write_jaded(const ExportOptions& options, const h5::Reader& reader, std::ostream& out, const std::string& out_name) {
  CorpusOptions corpus = options.corpus;
  if (corpus.inputs.empty()) {
    std::istringstream recorded(reader.attribute_string("/", "inputs"));
    for (std::string path; std::getline(recorded, path);) corpus.inputs.push_back(path);
  }
  const auto pair_ids = reader.read_uint("/selection/pair_id");
  const auto flags = reader.read_uint("/selection/flags");
  std::vector<std::string> names = {"pair_id", "flags"};
  std::vector<std::size_t> lengths = {pair_ids.size(), flags.size()};
  std::vector<std::vector<std::string>> columns;
  for (const char* name : {"rank", "delta_h", "penalty", "gain", "cross_entropy", "root_word", "wge"}) {
    columns.push_back(reader.read_text(std::string("/selection/") + name));
    names.push_back(name);
    lengths.push_back(columns.back().size());
  }
  check_lengths(options.hdf5, "/selection", names, lengths);
  const std::string side = selection_side(options, reader);
  const auto texts = load_texts(corpus, side);
  out << "line_id\trank\tscore\tpenalty\tgain\tcross_entropy\troot_word\twge\ttext\n";
  for (std::size_t r = 0; r < pair_ids.size(); ++r) {
    if (options.selected_only && flags[r] != 0) continue;
    if (pair_ids[r] >= texts.size()) throw UsageError(cat("pair_id ", pair_ids[r], " is beyond the lines of --input"));
    out << pair_ids[r];
    for (const auto& column : columns) out << "\t" << cell(column[r]);
    out << "\t" << cell(line_text(texts[pair_ids[r]], side)) << "\n";
    check_written(out, out_name);
  }
}

// Writes the table to `out`, named `out_name` in messages; stops at the first failed write.
void write_table(const ExportOptions& options, std::ostream& out, const std::string& out_name) {
  const h5::Reader reader(options.hdf5);
  const std::string group = "/" + options.group;
  if (!reader.exists(group)) throw UsageError(cat(options.hdf5, " has no ", group, " table"));
  if (options.jaded) {
    if (options.group != "selection") throw UsageError("--jaded is for --group selection");
    write_jaded(options, reader, out, out_name);
    return;
  }
  const auto names = reader.datasets(group);
  std::vector<std::vector<std::string>> columns;
  std::vector<std::size_t> lengths;
  for (const auto& name : names) {
    columns.push_back(reader.read_text(group + "/" + name));
    lengths.push_back(columns.back().size());
  }
  check_lengths(options.hdf5, group, names, lengths);  // pair_id and flags below are columns of the group too
  const std::size_t rows = columns.empty() ? 0 : columns[0].size();

  // Selection lines are one text (as the run read them); other tables' rows are pairs.
  const bool join = !options.corpus.inputs.empty();
  const std::string side = join && options.group == "selection" ? selection_side(options, reader) : "pair";
  std::vector<std::pair<std::string, std::string>> texts;
  std::vector<std::uint64_t> pair_ids;
  if (join) {
    if (!reader.exists(group + "/pair_id")) throw UsageError(cat(group, " has no pair_id column to join on"));
    texts = load_texts(options.corpus, side);
    pair_ids = reader.read_uint(group + "/pair_id");
  }

  for (std::size_t k = 0; k < names.size(); ++k) out << (k ? "\t" : "") << names[k];
  if (join) out << (side == "pair" ? "\tsrc\ttgt" : "\ttext");
  out << "\n";
  std::vector<std::uint64_t> flags;
  if (options.selected_only) {
    if (options.group != "selection") throw UsageError("--selected-only is for --group selection");
    flags = reader.read_uint("/selection/flags");
  }
  for (std::size_t r = 0; r < rows; ++r) {
    if (!flags.empty() && flags[r] != 0) continue;
    for (std::size_t k = 0; k < columns.size(); ++k) out << (k ? "\t" : "") << cell(columns[k][r]);
    if (join) {
      if (pair_ids[r] >= texts.size())
        throw UsageError(cat("pair_id ", pair_ids[r], " is beyond the ", texts.size(), " lines of --input: not the scored corpus?"));
      if (side == "pair")
        out << "\t" << cell(texts[pair_ids[r]].first) << "\t" << cell(texts[pair_ids[r]].second);
      else
        out << "\t" << cell(line_text(texts[pair_ids[r]], side));
    }
    out << "\n";
    check_written(out, out_name);
  }
}

}  // namespace

int run_export(const boost::mpi::communicator& comm, const ExportOptions& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;  // a small serial job; extra ranks wait
    if (options.output == "-") {
      try {
        write_table(options, std::cout, "standard output");
        check_written(std::cout.flush(), "standard output");
      } catch (const ReaderGone&) {
        status = kExitReaderGone;
      }
      return;
    }
    h5::check_output_target(options.output, options.force);
    const std::string partial = options.output + ".partial";
    {
      std::ofstream file(partial, std::ios::binary);
      if (!file) throw IoError(cat("cannot write ", partial));
      try {
        write_table(options, file, options.output);
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
