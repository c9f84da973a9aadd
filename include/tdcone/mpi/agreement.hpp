#pragma once
// Ranks agree on what they run and read before any work: the same command
// line, and the same input files, whose sizes rank 0 takes once for all.
#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "tdcone/core/option.hpp"
#include "tdcone/io/input_files.hpp"

namespace tdcone::mpi {

/// Collective: every rank gives the arguments it runs with (`what` names
/// them in messages: "the command line", "the options read from x.toml"), and
/// its own failure to get them (`status` 0 = none). Throws the same
/// CollectiveError on every rank for the lowest failing rank, or the lowest
/// rank whose arguments differ from rank 0's (status 2, naming both hosts and
/// the first argument that differs: another job script, or a config file that
/// differs between nodes).
void agree_on_arguments(const boost::mpi::communicator& comm, const std::vector<std::string>& arguments,
                        const std::string& what, int status = 0, const std::string& message = "");

/// Collective: the files `patterns` (the value of `option`) name, as rank 0
/// resolves them (io::resolve_inputs), on every rank. Every other rank looks
/// the files up itself and stops the job (status 1, naming the rank, both
/// hosts, the file and what differs) unless it sees the same files: a glob
/// that matches other files, a node-local copy that differs, a file cut or
/// rewritten while the job starts (io::how_files_differ). A file still being
/// appended to is fine: every rank reads the `size` rank 0 saw, which the
/// result records with the fingerprint of exactly those bytes.
std::vector<io::InputFile> agreed_inputs(const boost::mpi::communicator& comm, const std::vector<std::string>& patterns,
                                         Option option);

}  // namespace tdcone::mpi
