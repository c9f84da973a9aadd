#pragma once
// tdcone export: its options and its run.
#include <boost/mpi/communicator.hpp>

#include <string>

#include "tdcone/cli/options.hpp"
#include "tdcone/exporting/query.hpp"

namespace tdcone::cli {

struct ExportOptions {
  exporting::ExportConfig config;
  std::string to = "tsv";  // output format: tsv | jsonl
  std::string side;        // a selection's text: src | tgt | both (default: the run's --side)
};

void add_export_options(OptionSet& options, ExportOptions& export_options);

/// Runs the export; returns the exit status.
int run_export(const boost::mpi::communicator& comm, const ExportOptions& options);

}  // namespace tdcone::cli
