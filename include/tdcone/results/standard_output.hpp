#pragma once
// Standard output as a filter uses it: a write error is an error, and a reader
// that went away (`tdcone export ... | head -1`) ends the command quietly.
#include <boost/mpi/communicator.hpp>

#include <csignal>
#include <ostream>
#include <stdexcept>
#include <string>

namespace tdcone::results {

/// The status of a filter whose reader went away: 128 + SIGPIPE, what a shell
/// reports for coreutils killed by SIGPIPE. tdcone ignores SIGPIPE (main.cpp)
/// so that it sees EPIPE instead, and exits with this status, saying nothing.
inline constexpr int kExitReaderGone = 128 + SIGPIPE;

/// Thrown where standard output is written when its reader went away; the
/// command catches it and returns kExitReaderGone.
struct ReaderGone : std::runtime_error {
  ReaderGone() : std::runtime_error("the reader of standard output went away") {}
};

/// True when standard output is a pipe or socket nobody reads any more.
bool standard_output_reader_gone();

/// Throws unless every write to `out` so far succeeded: ReaderGone for
/// std::cout whose reader went away, else IoError naming `name`.
void check_written(const std::ostream& out, const std::string& name);

/// Collective: rank 0 flushes what it printed on standard output (a summary);
/// a write error stops every rank with exit status 1 and a message naming
/// standard output. Returns the command's exit status on every rank: 0, or
/// kExitReaderGone when the reader went away.
int finish_standard_output(const boost::mpi::communicator& comm);

}  // namespace tdcone::results
