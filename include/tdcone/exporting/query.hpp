#pragma once
// tdcone export: a table of an HDF5 result as TSV or JSON lines, filtered,
// sorted, cut to the top N, optionally joined with the input text.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tdcone/exporting/text.hpp"
#include "tdcone/select/corpora.hpp"

namespace tdcone::exporting {

/// What export writes.
enum class ExportFormat {
  tsv,    // a header line, then one line per row
  jsonl,  // one JSON object per row
};

struct ExportConfig {
  std::string hdf5;
  std::string group = "pairs";
  ExportFormat to = ExportFormat::tsv;
  std::string output = "-";    // a name ending in .zst is written zstd-compressed
  bool force = false;
  bool text = false;           // join the input text (src/tgt, or a selection's text)
  std::vector<std::string> inputs;   // replaces the input paths the run recorded
  std::optional<select::Side> side;  // a selection's text (default: the run's --side)
  std::string sort_by;
  bool ascending = false, descending = false;
  std::uint64_t top = 0;       // 0 = all rows
  std::vector<std::string> where;
  bool selected = false;       // selection: rows up to stop_rank that are selected, in rank order
  bool lines_only = false;     // only each kept row's input line, verbatim: in input order, unless sort_by or selected
  bool jaded = false;          // the classic cynical-selection TSV for /selection
  RunConfigReader read_run_config;  // reads the result's recorded configuration
};

/// Writes the export on rank 0 (a small serial job; the other ranks wait), to
/// standard output or, through a partial file renamed at the end, to
/// `config.output`. Returns the exit status: 0, or io::kExitReaderGone when the
/// reader of standard output went away. Collective.
int run_export_job(const boost::mpi::communicator& comm, const ExportConfig& config);

}  // namespace tdcone::exporting
