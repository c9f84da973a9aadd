// The process's set-up before MPI starts (cli/app.hpp).
#include <malloc.h>

#include <csignal>
#include <string_view>

#include "tdcone/cli/app.hpp"
#include "tdcone/jobs/select_job.hpp"

namespace tdcone::cli {

void prepare_process(int argc, char** argv) {
  // The score engine frees and allocates large blocks of the same sizes
  // round after round (the matrix's merged buckets, a round's messages). By
  // default glibc maps each block over a threshold on its own and unmaps it
  // when freed, and gives the free top of the heap back to the system, so
  // every new block faults in fresh pages that the kernel zeroes. Blocks up
  // to 1 GiB come from the heap instead, and up to 1 GiB of free memory stays
  // at its top, where the next blocks and the ranking after the matrices
  // reuse it.
  constexpr int kKeptHeapBytes = 1 << 30;
  mallopt(M_MMAP_THRESHOLD, kKeptHeapBytes);
  mallopt(M_TRIM_THRESHOLD, kKeptHeapBytes);
  // Before MPI's start-up, which takes a while: a signal that early still ends
  // a selection with a checkpoint (at its first iteration) and exit status 75.
  if (argc > 1 && std::string_view(argv[1]) == "select") jobs::catch_stop_signals();
  // A file over the size limit (ulimit -f) is a write error to report, not a crash.
  std::signal(SIGXFSZ, SIG_IGN);
  // A closed pipe is EPIPE where standard output is written: the command ends
  // quietly with status 141, as if SIGPIPE had killed it (results/standard_output.hpp).
  std::signal(SIGPIPE, SIG_IGN);
}

}  // namespace tdcone::cli
