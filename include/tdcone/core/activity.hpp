#pragma once
// What the stall watchdog (mpi/stall_watchdog.hpp) sees of a rank's work:
// counters, not output; any code may count its steps.
#include <cstdint>
#include <string>

namespace tdcone {

/// This rank's work as the stall watchdog sees it: `enter_phase` names what
/// it does now, `note_progress` counts a step of it (a relaxed atomic add:
/// cheap enough for any loop that runs a round, a block or a batch at a time).
/// Progress (progress.hpp) does both; these are for the phases and waits without one.
void enter_phase(const std::string& name);
void note_progress();
/// Read by the watchdog thread (and by failure messages): steps counted so far
/// and the current phase ("start" before the first).
std::uint64_t progress_steps();
std::string current_phase();

}  // namespace tdcone
