#pragma once
// tdcone info: what a result file holds, for people.
#include <ostream>
#include <string>

namespace tdcone::results {

/// Writes what the result `path` holds to `out`: the run (its root
/// attributes, inputs and configuration), then every group with its rows,
/// columns and attributes. Throws IoError unless it is a tdcone result this
/// tdcone reads.
void print_info(std::ostream& out, const std::string& path);

}  // namespace tdcone::results
