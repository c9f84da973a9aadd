#pragma once
// Turning an error on one rank into a clean stop of every rank.
#include <boost/mpi/communicator.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace tdcone::mpi {

/// An error every rank knows about; rank 0 prints it, all ranks exit with `exit_status`.
struct CollectiveError : std::runtime_error {
  CollectiveError(const std::string& message, int status) : std::runtime_error(message), exit_status(status) {}
  int exit_status;
};

/// Runs `step` on every rank. If it throws on any rank, every rank throws a
/// CollectiveError carrying the message of the lowest failing rank (prefixed
/// with that rank when there are several), so no rank is left waiting in a
/// collective call. UsageError maps to exit status 2, anything else to 1.
void collective_step(const boost::mpi::communicator& comm, const std::function<void()>& step);

/// Every rank raises the same CollectiveError (for errors all ranks detect together).
[[noreturn]] void fail_everywhere(const std::string& message, int status);

}  // namespace tdcone::mpi
