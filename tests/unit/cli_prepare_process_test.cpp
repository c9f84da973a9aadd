// The process's set-up before MPI starts (cli::prepare_process): which
// signals it ignores or catches for which command. (Its heap thresholds are
// advice to glibc's allocator, whose behaviour is not this project's to
// test, and which a sanitizer build replaces.) Each case runs in a child
// process, so that the tests' own process keeps its signals.
#include "tdcone/cli/app.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace tdcone::cli {
namespace {

// What `probe` returns in a forked child ("child failed" when it did not report).
std::string in_child(const std::function<std::string()>& probe) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return "no pipe";
  const pid_t pid = ::fork();
  if (pid < 0) return "no fork";
  if (pid == 0) {
    ::close(pipe_fds[0]);
    const std::string report = probe();
    const ssize_t written = ::write(pipe_fds[1], report.data(), report.size());
    ::_exit(written == static_cast<ssize_t>(report.size()) ? 0 : 1);
  }
  ::close(pipe_fds[1]);
  std::string report;
  char buffer[256];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) report.append(buffer, n);
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? report : "child failed";
}

// How `signal` is handled: "default", "ignored" or "caught".
std::string disposition(int signal) {
  struct sigaction now {};
  ::sigaction(signal, nullptr, &now);
  if (now.sa_handler == SIG_DFL) return "default";
  return now.sa_handler == SIG_IGN ? "ignored" : "caught";
}

// prepare_process for the command line `tdcone ARGS...`, from default dispositions;
// then the dispositions of SIGTERM, SIGUSR1, SIGPIPE and SIGXFSZ.
std::string signals_after(std::vector<std::string> args) {
  return in_child([&] {
    for (int s : {SIGTERM, SIGUSR1, SIGPIPE, SIGXFSZ}) std::signal(s, SIG_DFL);
    args.insert(args.begin(), "tdcone");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    prepare_process(static_cast<int>(args.size()), argv.data());
    return "TERM " + disposition(SIGTERM) + ", USR1 " + disposition(SIGUSR1) + ", PIPE " + disposition(SIGPIPE) +
           ", XFSZ " + disposition(SIGXFSZ);
  });
}

TEST(PrepareProcess, AClosedPipeAndAFileSizeLimitAreErrorsNotSignals) {
  EXPECT_EQ(signals_after({"score", "--input", "a.tsv"}), "TERM default, USR1 default, PIPE ignored, XFSZ ignored");
  EXPECT_EQ(signals_after({}), "TERM default, USR1 default, PIPE ignored, XFSZ ignored");
}

TEST(PrepareProcess, ASelectionCatchesStopSignalsFromTheStart) {
  EXPECT_EQ(signals_after({"select", "--available", "a.txt"}), "TERM caught, USR1 caught, PIPE ignored, XFSZ ignored");
  // Only the command's own name counts: not a later argument, nor another command.
  EXPECT_EQ(signals_after({"score", "select"}), "TERM default, USR1 default, PIPE ignored, XFSZ ignored");
  EXPECT_EQ(signals_after({"selection"}), "TERM default, USR1 default, PIPE ignored, XFSZ ignored");
}

}  // namespace
}  // namespace tdcone::cli
