// The process's set-up before MPI starts (cli/app.hpp).
#include <csignal>
#include <string_view>

#include "tdcone/cli/app.hpp"
#include "tdcone/jobs/select_job.hpp"

namespace tdcone::cli {

void prepare_process(int argc, char** argv) {
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
