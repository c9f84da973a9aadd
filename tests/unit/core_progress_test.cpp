// Progress as compute code sees it: a callback its caller connects to a
// Progress line or to nothing; the watchdog's counters move either way.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tdcone/core/activity.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/core/progress_callback.hpp"

namespace tdcone {
namespace {

TEST(ProgressCallback, TheDefaultReportsToNoOne) {
  // Compute code calls it unconditionally: with no function behind it, a
  // call neither throws (std::bad_function_call) nor counts a step.
  const ProgressCallback nobody;
  const std::uint64_t before = progress_steps();
  EXPECT_NO_THROW(nobody.update(5, 0.5));
  EXPECT_NO_THROW(nobody.finish(10));
  EXPECT_EQ(progress_steps(), before);
}

TEST(ProgressCallback, PassesUpdatesAndTheFinishOn) {
  std::vector<std::uint64_t> updates, finishes;
  double last_fraction = -1;
  const ProgressCallback callback([&](std::uint64_t done, double fraction) { updates.push_back(done), last_fraction = fraction; },
                                  [&](std::uint64_t done) { finishes.push_back(done); });
  callback.update(3, 0.25);
  callback.update(6, 0.5);
  callback.finish(12);
  EXPECT_EQ(updates, (std::vector<std::uint64_t>{3, 6}));
  EXPECT_EQ(last_fraction, 0.5);
  EXPECT_EQ(finishes, (std::vector<std::uint64_t>{12}));
}

TEST(ProgressCallback, AProgressCallbackCountsForTheWatchdog) {
  Progress progress(false, "callback test", "rows");
  EXPECT_EQ(current_phase(), "callback test");
  const std::uint64_t before = progress_steps();
  const ProgressCallback callback = progress.callback();
  callback.update(1, 0.1);
  callback.update(2, 0.2);
  callback.finish(2);
  EXPECT_EQ(progress_steps(), before + 2);
}

}  // namespace
}  // namespace tdcone
