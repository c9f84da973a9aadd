// tdcone export: check the options and the result, choose the rows, write them.
#include "tdcone/exporting/query.hpp"

#include <ext/stdio_filebuf.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/io/output_guard.hpp"
#include "tdcone/io/output_lock.hpp"
#include "tdcone/exporting/rows.hpp"
#include "tdcone/exporting/where.hpp"
#include "tdcone/results/checks.hpp"
#include "tdcone/results/standard_output.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::exporting {

namespace {

constexpr std::size_t kExportBuffer = std::size_t{1} << 16;  // bytes written to the file at a time

// Refuses a table whose columns differ in length: a damaged or hand-made file
// must not be read past the end of its shortest column.
Table read_table(const hdf5::Reader& reader, const std::string& file, const std::string& group) {
  Table table;
  table.group = group;
  table.names = reader.datasets(group);
  for (const auto& name : table.names) table.columns.push_back(reader.read_column(group + "/" + name));
  const bool same = std::all_of(table.columns.begin(), table.columns.end(),
                                [&](const hdf5::Column& c) { return c.size() == table.rows(); });
  if (!same) {
    std::string rows;
    for (std::size_t k = 0; k < table.names.size(); ++k)
      rows += cat(k ? ", " : "", table.names[k], " ", table.columns[k].size());
    throw UsageError(cat(file, ": the columns of ", group, " differ in length (rows: ", rows,
                         "): not a complete tdcone result"));
  }
  return table;
}

// The rows to write, in order: --selected, --where, --sort-by, --top.
std::vector<std::size_t> choose_rows(const ExportConfig& options, const hdf5::Reader& reader, const Table& table) {
  std::vector<std::size_t> rows(table.rows());
  std::iota(rows.begin(), rows.end(), 0);
  if (options.selected) {
    const schema::Attribute& stop_rank = schema::selection::stop_rank;
    const std::uint64_t stop = reader.attribute_uint(stop_rank.object, stop_rank.name);
    const auto& rank = table.columns[table.column(schema::selection::rank.name, Option::selected)];
    const auto& flags = table.columns[table.column(schema::selection::flags.name, Option::selected)];
    std::erase_if(rows, [&](std::size_t r) { return !(rank.number(r) <= stop && flags.number(r) == 0); });
    // Rank order, as --selected promises, whatever the order of the file's rows.
    std::stable_sort(rows.begin(), rows.end(),
                     [&](std::size_t a, std::size_t b) { return rank.number(a) < rank.number(b); });
  }
  const auto column_named = [&](const std::string& name) -> const hdf5::Column& {
    return table.columns[table.column(name, Option::where)];
  };
  for (const std::string& text : options.where) {
    const RowCondition condition = parse_where(text, column_named, table.group);
    std::erase_if(rows, [&](std::size_t r) { return !condition.holds(r); });
  }
  if (!options.sort_by.empty()) {
    const hdf5::Column& column = table.columns[table.column(options.sort_by, Option::sort_by)];
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

void check_combination(const ExportConfig& o) {
  const bool pairs_like = o.group == "pairs" || o.group == "balance" || o.group == "selection";
  const auto only_selection = [](Option option) { return UsageError(cat(option, " is for ", Option::group, " selection")); };
  if (o.jaded && o.group != "selection") throw only_selection(Option::jaded);
  if (o.selected && o.group != "selection") throw only_selection(Option::selected);
  if (o.side.has_value() && o.group != "selection") throw only_selection(Option::side);
  if ((o.text || o.lines_only) && !pairs_like)
    throw UsageError(cat(o.text ? Option::text : Option::lines_only, " is for ", Option::group,
                         " pairs, balance or selection (/", o.group, " has no input lines)"));
  if (o.lines_only && (o.text || o.jaded || o.to != ExportFormat::tsv))
    throw UsageError(cat(Option::lines_only, " writes only the input lines: not with ", Option::text, ", ", Option::jaded,
                         " or ", Option::to));
  if (o.jaded && o.to != ExportFormat::tsv)
    throw UsageError(cat(Option::jaded, " writes its classic TSV: not with ", Option::to, " jsonl"));
  if (!o.inputs.empty() && !o.text && !o.lines_only && !o.jaded)
    throw UsageError(cat(Option::input, " says where the text is: give it with ", Option::text, ", ", Option::lines_only,
                         " or ", Option::jaded));
  if (o.ascending && o.descending)
    throw UsageError(cat(Option::ascending, " and ", Option::descending, ": give one of them"));
  if ((o.ascending || o.descending) && o.sort_by.empty())
    throw UsageError(cat(o.ascending ? Option::ascending : Option::descending, " orders ", Option::sort_by,
                         ": give a column to sort by"));
}

// Writes the export to `out` (see write_rows).
void write_export(const ExportConfig& options, std::ostream& out, const std::string& out_name, bool zstd,
                  bool discarded_on_error) {
  check_combination(options);
  const hdf5::Reader reader(options.hdf5);
  results::check_tdcone_result(reader, options.hdf5);
  const std::string group = "/" + options.group;
  if (!reader.exists(group)) throw UsageError(cat(options.hdf5, " has no ", group, " table"));
  results::check_result_table(reader, options.hdf5, group, "export");
  const Table table = read_table(reader, options.hdf5, group);
  if (const auto pair_id = table.find(schema::pairs::pair_id.name))  // each line once: no repeated or missing text
    results::check_pair_ids(options.hdf5, group, table.columns[*pair_id].unsigned_values, results::recorded_line_count(reader));
  std::vector<std::size_t> rows = choose_rows(options, reader, table);
  write_rows(options, reader, table, std::move(rows), out, out_name, zstd, discarded_on_error);
}

}  // namespace

int run_export_job(const boost::mpi::communicator& comm, const ExportConfig& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;  // a small serial job; extra ranks wait
    if (options.output == "-") {
      try {
        write_export(options, std::cout, "standard output", false, false);
      } catch (const results::ReaderGone&) {
        status = results::kExitReaderGone;
      }
      return;
    }
    hdf5::check_output_target(options.output, options.force);
    const bool zstd = options.output.size() > 4 && options.output.ends_with(".zst");
    const io::OutputLock lock(options.output);  // as the HDF5 writer: a file of our own, one writer at a time
    // Written through the descriptor of the file we created, never reopened by name.
    const io::PartialFile partial = io::create_partial_file(options.output);
    io::PartialOnSignal on_signal(partial.path, 0);  // Ctrl-C or SIGTERM: neither it nor the lock is left
    try {
      __gnu_cxx::stdio_filebuf<char> buffer(partial.fd, std::ios::out | std::ios::binary, kExportBuffer);
      std::ostream file(&buffer);
      write_export(options, file, options.output, zstd, true);
      file.flush();
      if (!buffer.close()) file.setstate(std::ios::badbit);
      results::check_written(file, options.output);
      hdf5::check_output_target(options.output, options.force);  // again: something may have appeared meanwhile
      io::commit_partial(partial.path, options.output, options.force);
    } catch (...) {
      ::unlink(partial.path.c_str());
      throw;
    }
    on_signal.kept();
  });
  return status;
}

}  // namespace tdcone::exporting
