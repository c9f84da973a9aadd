// What the stall watchdog sees of a rank's work (core/activity.hpp): the
// phase named last and the steps counted.
#include "tdcone/core/activity.hpp"

#include <gtest/gtest.h>

namespace tdcone {
namespace {

TEST(Activity, APhaseIsNamedUntilTheNext) {
  enter_phase("reading");
  EXPECT_EQ(current_phase(), "reading");
  enter_phase("aligning");
  EXPECT_EQ(current_phase(), "aligning");
}

TEST(Activity, EachNoteIsOneStepAndEnteringAPhaseIsOne) {
  const std::uint64_t before = progress_steps();
  note_progress();
  note_progress();
  EXPECT_EQ(progress_steps(), before + 2);
  enter_phase("writing");  // a new phase is progress too
  EXPECT_EQ(progress_steps(), before + 3);
}

}  // namespace
}  // namespace tdcone
