#pragma once
// Progress lines on rank 0 for long phases: done, rate, elapsed, ETA.
#include <chrono>
#include <cstdint>
#include <string>

#include "tdcone/core/activity.hpp"
#include "tdcone/core/progress_callback.hpp"

namespace tdcone {

/// Wall time since construction.
class Stopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// Every rank constructs and updates its phase's Progress (printing only
/// where enabled): that is what the stall watchdog (mpi/stall_watchdog.hpp)
/// sees of the rank's work, the phase's name and a count of its updates.
class Progress {
 public:
  /// `enabled` is true on rank 0 only; `unit` names what is counted ("lines"),
  /// `scope` whose they are ("rank 0": rank 0's share, "all ranks": the job's)
  /// out of `ranks` ranks. With several ranks a line starts with the scope
  /// ("[read corpus] rank 0: 1.2M lines (50%), 400k lines/s, about 800k lines/s
  /// on all 2 ranks, ..."); rank 0's rate is scaled to the job's, as shares are
  /// about equal.
  Progress(bool enabled, std::string phase, std::string unit, std::string scope = "", int ranks = 1);

  /// `done` items so far; `fraction` of this rank's work done (0..1), for the
  /// ETA; `note` is appended. Prints at most once per progress interval.
  void update(std::uint64_t done, double fraction, const std::string& note = "");
  /// Final line of the phase.
  void finish(std::uint64_t done);
  /// A callback for compute code that updates and finishes this Progress
  /// (which must outlive the callback's use).
  ProgressCallback callback();

  double elapsed_seconds() const { return clock_.seconds(); }

 private:
  bool enabled_;
  std::string phase_, unit_, scope_;
  int ranks_;
  Stopwatch clock_;
  std::chrono::steady_clock::time_point last_print_;
};

/// Seconds between the progress lines of a phase (default 2; 0 = none).
/// Process-wide: set once from the command line (--progress-every).
void set_progress_interval(double seconds);

/// --quiet: no progress lines and no list of bad lines (errors, warnings
/// and summaries stay). Process-wide, like the progress interval.
void set_quiet(bool quiet);
bool quiet();

/// "1.23M", "45.6k", "789".
std::string human_count(double value);

}  // namespace tdcone
