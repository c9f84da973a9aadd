#include "tdcone/results/standard_output.hpp"

#include <boost/mpi/collectives.hpp>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"

namespace tdcone::results {

namespace {

// Why the last write failed, as errno says right after it.
std::string reason() { return errno != 0 ? cat(": ", std::strerror(errno)) : ""; }

}  // namespace

bool standard_output_reader_gone() {
  // The write end of a pipe without readers polls as an error (EPIPE on write);
  // a socket shut down by its peer, as hung up. Asked after the fact, this does
  // not depend on errno surviving the code between the write and the check.
  pollfd out{STDOUT_FILENO, POLLOUT, 0};
  return ::poll(&out, 1, 0) == 1 && (out.revents & (POLLERR | POLLHUP)) != 0;
}

void check_written(const std::ostream& out, const std::string& name) {
  if (out) return;
  if (&out == &std::cout && standard_output_reader_gone()) throw ReaderGone();
  throw IoError(cat("cannot write ", name, reason()));
}

int finish_standard_output(const boost::mpi::communicator& comm) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return;  // std::cout shares stdout's buffer
    if (!standard_output_reader_gone()) throw IoError(cat("cannot write the summary to standard output", reason()));
    status = kExitReaderGone;
  });
  boost::mpi::broadcast(comm, status, 0);
  return status;
}

}  // namespace tdcone::results
