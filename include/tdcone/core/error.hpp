#pragma once
// Errors carry their context (file, line, option) in the message; they are
// caught once at the command boundary (see mpi/guard.hpp and main.cpp).
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

// Messages name options by identity, cat(Option::memory, " ", size): the words are cli's.
#include "tdcone/core/option.hpp"

namespace tdcone {

/// A problem with what the user gave us (options, files, data): exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A problem reading input or writing output: exit status 1.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Builds a message from streamable parts: throw IoError(cat("cannot open ", path)).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

/// What an allocation failure (std::bad_alloc) reports where it is caught
/// (mpi/guard, main): "out of memory", or what `explain` returns once set by
/// the layer that knows the memory budget (engine/memory_budget).
std::string out_of_memory_message();
void set_out_of_memory_message(std::function<std::string()> explain);

}  // namespace tdcone
