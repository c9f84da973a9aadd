#pragma once
// A result's recorded configuration (the TOML that --config reads), read back
// for the jobs that join a result with its input (export, balance --ranking).
#include <string>

#include "tdcone/exporting/text.hpp"

namespace tdcone::cli {

/// The reader settings of a run, from its effective configuration `config`
/// (keys named like the long options; a key the run did not have keeps the
/// default). Throws IoError naming `result` when `config` is not TOML.
exporting::RunSettings read_run_settings(const std::string& config, const std::string& result);

}  // namespace tdcone::cli
