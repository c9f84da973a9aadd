#include "tdcone/core/progress.hpp"

#include <cstdio>

namespace tdcone {

using Clock = std::chrono::steady_clock;

namespace {
double progress_interval = 2.0;  // seconds
bool quiet_run = false;
}  // namespace

void set_progress_interval(double seconds) { progress_interval = seconds; }
void set_quiet(bool quiet) { quiet_run = quiet; }
bool quiet() { return quiet_run; }

Progress::Progress(bool enabled, std::string phase, std::string unit, std::string scope, int ranks)
    : enabled_(enabled), phase_(std::move(phase)), unit_(std::move(unit)),
      scope_(scope.empty() || ranks <= 1 ? "" : scope + ": "), ranks_(ranks), last_print_(Clock::now()) {
  enter_phase(phase_);
}

void Progress::update(std::uint64_t done, double fraction, const std::string& note) {
  note_progress();
  if (!enabled_ || progress_interval <= 0 || quiet_run) return;
  const auto now = Clock::now();
  if (now - last_print_ < std::chrono::duration<double>(progress_interval)) return;
  last_print_ = now;
  const double elapsed = elapsed_seconds();
  const double rate = elapsed > 0 ? done / elapsed : 0.0;
  const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  std::string total_rate;  // rank 0's share: the job goes about `ranks_` times as fast
  if (scope_ == "rank 0: ")
    total_rate = ", about " + human_count(rate * ranks_) + " " + unit_ + "/s on all " + std::to_string(ranks_) + " ranks";
  std::fprintf(stderr, "[%s] %s%s %s (%.0f%%), %s %s/s%s, elapsed %.1fs, ETA %.1fs%s%s\n", phase_.c_str(), scope_.c_str(),
               human_count(done).c_str(), unit_.c_str(), 100.0 * fraction, human_count(rate).c_str(), unit_.c_str(),
               total_rate.c_str(), elapsed, eta, note.empty() ? "" : ", ", note.c_str());
}

void Progress::finish(std::uint64_t done) {
  const double elapsed = elapsed_seconds();
  if (!enabled_ || elapsed < 1.0 || progress_interval <= 0 || quiet_run) return;  // short phases need no log line
  std::fprintf(stderr, "[%s] done: %s%s %s in %.2fs (%s %s/s)\n", phase_.c_str(), scope_.c_str(), human_count(done).c_str(),
               unit_.c_str(), elapsed, human_count(elapsed > 0 ? done / elapsed : 0.0).c_str(), unit_.c_str());
}

ProgressCallback Progress::callback() {
  return {[this](std::uint64_t done, double fraction) { update(done, fraction); },
          [this](std::uint64_t done) { finish(done); }};
}

std::string human_count(double value) {
  char text[32];
  if (value >= 1e6)
    std::snprintf(text, sizeof text, "%.2fM", value / 1e6);
  else if (value >= 1e4)
    std::snprintf(text, sizeof text, "%.1fk", value / 1e3);
  else
    std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

}  // namespace tdcone
