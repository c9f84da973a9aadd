#pragma once
// Turning an error on one rank into a clean stop of every rank.
#include <boost/mpi/communicator.hpp>

#include <mpi.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace tdcone::mpi {

/// An error every rank knows about; rank 0 prints it, all ranks exit with `exit_status`.
struct CollectiveError : std::runtime_error {
  CollectiveError(const std::string& message, int status, bool consequence = false)
      : std::runtime_error(message), exit_status(status), consequence(consequence) {}
  int exit_status;
  bool consequence;  // raised here because another rank failed (its cause is reported elsewhere)
};

/// A failure on some rank, as every rank learns it.
struct Failure {
  int rank = 0;             // the lowest rank whose failure is a cause, not a consequence
  bool everywhere = false;  // every rank failed, each of its own
  bool here = false;        // `rank` is this rank
  int status = 0;           // that rank's nonzero status
  std::string message;
};

/// --stall-timeout's default: seconds without progress on any rank before the
/// job is stopped (mpi/stall_watchdog.hpp), and the failure check's patience.
constexpr double kDefaultStallTimeoutSeconds = 600;

/// How long a failing rank waits for the others to reach the failure check
/// before it stops the job with MPI_Abort (0 = without limit): the others may
/// be stuck in a collective call that needs the failing rank, or inside HDF5
/// after an I/O error. Process-wide, set once from --stall-timeout: generous,
/// because a healthy rank may still be busy with its share.
void set_failure_patience(double seconds);
double failure_patience();

/// The communicator failures are agreed on: a duplicate of the job's, made
/// once at start-up (main, test mains). A failing rank that reaches the check
/// early can then never be matched with another collective call the other
/// ranks are in; it waits for them on this channel alone. One per process.
class FailureChannel {
 public:
  explicit FailureChannel(MPI_Comm comm);
  ~FailureChannel();
  FailureChannel(const FailureChannel&) = delete;
  FailureChannel& operator=(const FailureChannel&) = delete;
};

/// Run when a rank has to stop the job with MPI_Abort (e.g. remove a
/// partial output file); registered for the lifetime of this object.
class AbortCleanup {
 public:
  explicit AbortCleanup(std::function<void()> action);
  ~AbortCleanup();
  AbortCleanup(const AbortCleanup&) = delete;
  AbortCleanup& operator=(const AbortCleanup&) = delete;

 private:
  std::size_t id_;
};

/// Runs the AbortCleanup actions, then stops every rank with MPI_Abort. From
/// any thread (the stall watchdog's too).
[[noreturn]] void abort_job(int status);

/// Collective: each rank gives its `status` (0 = fine) and `message`; every rank
/// gets the failure of the lowest failing rank, or nothing when all are fine.
/// A failure that is only the `consequence` of another rank's is reported
/// only when no rank has a cause of its own. A failing rank waits at most
/// `patience` seconds for the others; then it prints its message, runs the
/// AbortCleanup actions and aborts the job with its status, so that a
/// failure always ends the job in bounded time (unless patience is 0).
std::optional<Failure> first_failure(MPI_Comm comm, int status, const std::string& message, bool consequence = false,
                                     double patience = failure_patience());

/// Runs `step` on this rank only: 0 when it returns, else the exit status of
/// what it threw (UsageError 2, a CollectiveError its own, anything else 1)
/// with its message in `message`. For loops whose collectives lie between
/// local steps.
int run_local_step(const std::function<void()>& step, std::string& message, bool* consequence = nullptr);

/// The error every rank raises for `failure`: its message, prefixed with the
/// failing rank unless all failed.
CollectiveError collective_error(const Failure& failure);

/// Runs `step` on every rank. If it throws on any rank, every rank throws a
/// CollectiveError carrying the message of the lowest failing rank (prefixed
/// with that rank unless all failed), so no rank is left waiting in a
/// collective call. UsageError maps to exit status 2, anything else to 1.
/// `step` must not itself call collectives that could be skipped by a throw
/// on some ranks only: it is the local part of a phase, and the agreement
/// comes before the phase's next collective call.
void collective_step(const boost::mpi::communicator& comm, const std::function<void()>& step);

/// This process's host (MPI_Get_processor_name), for messages that name a rank.
std::string host_name();

/// Every rank raises the same CollectiveError (for errors all ranks detect together).
[[noreturn]] void fail_everywhere(const std::string& message, int status);

}  // namespace tdcone::mpi
