#include "tdcone/mpi/guard.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <thread>

#include "tdcone/core/error.hpp"
#include "tdcone/core/activity.hpp"

namespace tdcone::mpi {

namespace {

MPI_Comm failure_channel = MPI_COMM_NULL;
double patience_seconds = kDefaultStallTimeoutSeconds;  // --stall-timeout

// Registered by the main thread, run by whichever thread stops the job.
std::mutex cleanup_mutex;
std::map<std::size_t, std::function<void()>>& abort_cleanups() {
  static std::map<std::size_t, std::function<void()>> actions;
  return actions;
}

// The channel when `comm` is the job's communicator (or a duplicate of it), else `comm`.
MPI_Comm channel_for(MPI_Comm comm) {
  if (failure_channel == MPI_COMM_NULL) return comm;
  int relation = MPI_UNEQUAL;
  MPI_Comm_compare(comm, failure_channel, &relation);
  return relation == MPI_IDENT || relation == MPI_CONGRUENT ? failure_channel : comm;
}

// A failing rank's wait for the others: bounded by `patience` (unless 0), then
// the job stops. The wait counts as progress: the stall watchdog leaves the
// stop, with this rank's own message, to this patience.
void wait_or_abort(MPI_Request& request, double patience, int rank, int status, const std::string& message) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(patience);
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done) {
    if (patience > 0 && std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr,
                   "tdcone: rank %d: error: %s\n"
                   "tdcone: rank %d: the other ranks did not reach the failure check within %.0f s (%s); "
                   "stopping the job\n",
                   rank, message.c_str(), rank, patience, option_name(Option::stall_timeout).c_str());
      abort_job(status);
    }
    note_progress();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

FailureChannel::FailureChannel(MPI_Comm comm) { MPI_Comm_dup(comm, &failure_channel); }

FailureChannel::~FailureChannel() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Comm_free(&failure_channel);
  failure_channel = MPI_COMM_NULL;
}

void set_failure_patience(double seconds) { patience_seconds = seconds; }
double failure_patience() { return patience_seconds; }

AbortCleanup::AbortCleanup(std::function<void()> action) {
  const std::lock_guard lock(cleanup_mutex);
  static std::size_t next_id = 0;
  id_ = next_id++;
  abort_cleanups().emplace(id_, std::move(action));
}

AbortCleanup::~AbortCleanup() {
  const std::lock_guard lock(cleanup_mutex);
  abort_cleanups().erase(id_);
}

void abort_job(int status) {
  {
    const std::lock_guard lock(cleanup_mutex);
    for (auto& [id, action] : abort_cleanups()) action();
  }
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // MPI_Abort does not return
}

std::optional<Failure> first_failure(MPI_Comm comm, int status, const std::string& message, bool consequence,
                                     double patience) {
  const MPI_Comm channel = channel_for(comm);
  int rank = 0, size = 1;
  MPI_Comm_rank(channel, &rank);
  MPI_Comm_size(channel, &size);
  // One reduction: the lowest rank with a failure of its own, the lowest
  // failing rank, and whether every rank failed of its own. Non-blocking on
  // every rank (it must not meet a blocking one), so that a failing rank can
  // give up waiting.
  const bool failed = status != 0, cause = failed && !consequence;
  const int mine[3] = {cause ? rank : size, failed ? rank : size, cause ? 1 : 0};
  int least[3] = {size, size, 0};
  MPI_Request request;
  MPI_Iallreduce(mine, least, 3, MPI_INT, MPI_MIN, channel, &request);
  if (failed)
    wait_or_abort(request, patience, rank, status, message);
  else
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  const int first = least[0] < size ? least[0] : least[1];
  if (first == size) return std::nullopt;
  std::pair<int, std::string> failure{status, message};
  boost::mpi::broadcast(boost::mpi::communicator(channel, boost::mpi::comm_attach), failure, first);
  return Failure{first, least[2] == 1, first == rank, failure.first, failure.second};
}

int run_local_step(const std::function<void()>& step, std::string& message, bool* consequence) {
  try {
    step();
  } catch (const CollectiveError& e) {  // already agreed inside the step: keep its status
    message = e.what();
    if (consequence) *consequence = e.consequence;
    return e.exit_status;
  } catch (const UsageError& e) {
    message = e.what();
    return 2;
  } catch (const std::bad_alloc&) {
    message = out_of_memory_message();
    return 1;
  } catch (const std::exception& e) {
    message = e.what();
    return 1;
  }
  return 0;
}

void collective_step(const boost::mpi::communicator& comm, const std::function<void()>& step) {
  std::string message;
  bool consequence = false;
  const int status = run_local_step(step, message, &consequence);
  const auto failure = first_failure(comm, status, message, consequence);
  if (failure) throw collective_error(*failure);
}

CollectiveError collective_error(const Failure& failure) {
  const std::string where = failure.everywhere ? "" : cat("rank ", failure.rank, ": ");
  return CollectiveError(where + failure.message, failure.status, !failure.here);
}

std::string host_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<std::size_t>(length));
}

void fail_everywhere(const std::string& message, int status) { throw CollectiveError(message, status); }

}  // namespace tdcone::mpi
