#pragma once
// How compute code says how far it is, without knowing who shows it: its
// caller (a pipeline stage) connects the callback to a Progress line
// (progress.hpp), or to nothing.
#include <cstdint>
#include <functional>
#include <utility>

namespace tdcone {

/// A progress report handed to compute code; the default one reports to no one.
class ProgressCallback {
 public:
  /// `done` items so far and the `fraction` (0..1) of this rank's work done.
  using Update = std::function<void(std::uint64_t done, double fraction)>;
  /// The items done in all, once at the end.
  using Finish = std::function<void(std::uint64_t done)>;

  ProgressCallback() = default;
  ProgressCallback(Update update, Finish finish) : update_(std::move(update)), finish_(std::move(finish)) {}

  /// Called now and then while the work goes on.
  void update(std::uint64_t done, double fraction) const {
    if (update_) update_(done, fraction);
  }
  /// Called once when the work is done.
  void finish(std::uint64_t done) const {
    if (finish_) finish_(done);
  }

 private:
  Update update_;
  Finish finish_;
};

}  // namespace tdcone
