#include "tdcone/core/activity.hpp"

#include <atomic>
#include <mutex>

namespace tdcone {

namespace {
// Written by the main thread, read by the watchdog thread.
std::atomic<std::uint64_t> steps{0};
std::mutex phase_mutex;
std::string phase_name = "start";
}  // namespace

void enter_phase(const std::string& name) {
  {
    const std::lock_guard lock(phase_mutex);
    phase_name = name;
  }
  note_progress();
}

void note_progress() { steps.fetch_add(1, std::memory_order_relaxed); }

std::uint64_t progress_steps() { return steps.load(std::memory_order_relaxed); }

std::string current_phase() {
  const std::lock_guard lock(phase_mutex);
  return phase_name;
}

}  // namespace tdcone
