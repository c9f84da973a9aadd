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
  CollectiveError(const std::string& message, int status) : std::runtime_error(message), exit_status(status) {}
  int exit_status;
};

/// A failure on some rank, as every rank learns it.
struct Failure {
  int rank = 0;       // the lowest rank that failed
  bool everywhere = false;  // every rank failed
  int status = 0;     // that rank's nonzero status
  std::string message;
};

/// Collective: each rank gives its `status` (0 = fine) and `message`; every rank
/// gets the failure of the lowest failing rank, or nothing when all are fine.
std::optional<Failure> first_failure(MPI_Comm comm, int status, const std::string& message);

/// Runs `step` on this rank only: 0 when it returns, else the exit status of
/// what it threw (UsageError 2, anything else 1) with its message in
/// `message`. For loops whose collectives lie between local steps.
int run_local_step(const std::function<void()>& step, std::string& message);

/// The error every rank raises for `failure`: its message, prefixed with the
/// failing rank unless all failed.
CollectiveError collective_error(const Failure& failure);

/// Runs `step` on every rank. If it throws on any rank, every rank throws a
/// CollectiveError carrying the message of the lowest failing rank (prefixed
/// with that rank unless all failed), so no rank is left waiting in a
/// collective call. UsageError maps to exit status 2, anything else to 1.
void collective_step(const boost::mpi::communicator& comm, const std::function<void()>& step);

/// Every rank raises the same CollectiveError (for errors all ranks detect together).
[[noreturn]] void fail_everywhere(const std::string& message, int status);

}  // namespace tdcone::mpi
