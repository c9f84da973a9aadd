#pragma once
// Bounded waiting: a job in which no rank makes progress for --stall-timeout
// seconds is stopped, naming the stalled rank, its host and its phase.
#include <mpi.h>

#include <memory>

namespace tdcone::mpi {

/// The communicator of the watchdogs' heartbeats: a duplicate of the job's,
/// made once at start-up (main), when every rank is sure to be there; the
/// watchdog starts only after the options are parsed, and a collective call
/// then could wait forever for a rank that stopped on a bad option. One per
/// process; without it StallWatchdog watches nothing.
class StallChannel {
 public:
  explicit StallChannel(MPI_Comm comm);
  ~StallChannel();
  StallChannel(const StallChannel&) = delete;
  StallChannel& operator=(const StallChannel&) = delete;
};

/// A thread on every rank that watches this rank's progress (activity.hpp:
/// the Progress updates and phases of the main thread, no MPI call of its
/// own there). Rank 0's thread hears a heartbeat of every other rank every
/// few seconds (its phase and how long since its last progress) and answers
/// each. The job stops (one message, the AbortCleanup actions, MPI_Abort)
/// when a rank's heartbeats stop for `timeout` seconds (a stopped process or
/// node), or when no rank has made progress for that long (a rank waiting in
/// a collective call for a slow rank that works is no stall). Needs
/// MPI_THREAD_MULTIPLE; without it each rank watches only its own progress.
/// Nothing with timeout 0 or one rank.
class StallWatchdog {
 public:
  explicit StallWatchdog(double timeout_seconds);
  /// The normal end, on every rank: rank 0 waits for the other ranks'
  /// goodbyes (still watching), so that no heartbeat is left unanswered.
  void stop();
  /// Without stop() (this rank is leaving on an error of its own, and the
  /// job is about to be aborted): the thread ends without waiting for anyone.
  ~StallWatchdog();
  StallWatchdog(const StallWatchdog&) = delete;
  StallWatchdog& operator=(const StallWatchdog&) = delete;

  struct Watch;

 private:
  std::unique_ptr<Watch> watch_;
};

}  // namespace tdcone::mpi
