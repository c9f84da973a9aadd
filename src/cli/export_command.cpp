// tdcone export: a table of an HDF5 result as TSV or JSON lines (exporting/query.hpp).
#include "tdcone/cli/export_command.hpp"

#include <limits>

#include "tdcone/cli/common_options.hpp"
#include "tdcone/cli/run_config.hpp"

namespace tdcone::cli {

void add_export_options(OptionSet& o, ExportOptions& e) {
  exporting::ExportConfig& c = e.config;
  o.command()->add_option("hdf5", c.hdf5, "A tdcone HDF5 result")->required()->check(CLI::ExistingFile);
  o.add("group", c.group, "Table to export", one_of({"pairs", "shards", "sweep", "selection", "labels", "balance", "combinations", "lengths", "replicates", "intervals", "curves"}));
  o.add("to", e.to, "Output format: tsv (a header line, then one line per row) or jsonl (one JSON object per row; "
        "keys = column names; NaN and infinities are null)", one_of({"tsv", "jsonl"}));
  o.add("output", c.output, "File to write ('-' = standard output; a name ending in .zst is written zstd-compressed)");
  o.add_action_flag("force", c.force, "Overwrite an existing output file (never one of the inputs)");
  o.add_action_flag("text", c.text,
                    "Join each row with its input text: src and tgt (pairs, balance; after the run's --reverse), or text "
                    "(selection). Read from the files the run recorded, with its reader settings; refused when a "
                    "file's size or content differs from the recorded one. A bad line's src/tgt are empty (JSON "
                    "null) and its line is in raw");
  o.add("input", c.inputs, "With --text, --lines-only or --jaded: read these files (paths or globs, in the run's "
        "order) instead of the recorded ones, e.g. after they moved");
  o.add("side", e.side, "With --group selection: which text of a pair is a line's text (default: the run's --side)",
        one_of({"src", "tgt", "both"}));
  o.add("sort-by", c.sort_by, "Sort the rows by this column (NaN last either way; ties keep the table's order)");
  o.add_action_flag("ascending", c.ascending, "With --sort-by: smallest first (the default)");
  o.add_action_flag("descending", c.descending, "With --sort-by: largest first");
  o.add("top", c.top, "Only the first N rows, after --where, --selected and --sort-by (0 = all)",
        whole_number(0, std::numeric_limits<std::uint64_t>::max()));
  o.add("where", c.where, "Keep the rows where COLUMN OP NUMBER holds, e.g. 'tdcone<0.5', 'flags==0' (OP: < <= > >= "
        "== !=; NaN never passes), or, on a text column, COLUMN==TEXT or COLUMN!=TEXT with the text in single or "
        "double quotes, e.g. \"combination=='(6,6)'\", or one bit of flags or markers by its name, ==0 or ==1, e.g. "
        "'flags.duplicate==0', 'markers.tgt_url==0'; repeat for several conditions, all of which must hold")
      ->allow_extra_args(false);  // one condition an occurrence: `--where X RESULT.h5` keeps the file
  o.add_action_flag("selected", c.selected,
                    "With --group selection: only the selected lines, those ranked up to stop_rank (not junk, not "
                    "cut by --stop), in rank order");
  o.add_action_flag("lines-only", c.lines_only,
                    "With --group pairs, balance or selection: write only each kept row's input line, verbatim (bytes as in "
                    "the file), one per line, in input order unless --sort-by or --selected (rank order) is given; e.g. the "
                    "next seed corpus");
  o.add_action_flag("jaded", c.jaded, "With --group selection: the classic cynical-selection columns (line id, rank, "
                    "score, penalty, gain, cross-entropy, root word, WGE, text) as TSV; the text as with --text");
}

int run_export(const boost::mpi::communicator& comm, const ExportOptions& options) {
  exporting::ExportConfig config = options.config;
  config.to = options.to == "jsonl" ? exporting::ExportFormat::jsonl : exporting::ExportFormat::tsv;
  if (!options.side.empty())
    config.side = side_from_name(options.side);
  config.read_run_config = read_run_settings;
  return exporting::run_export_job(comm, config);
}

}  // namespace tdcone::cli
