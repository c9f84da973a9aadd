#pragma once
// Expectations on errors shared by the unit tests: the message of a
// UsageError or of an IoError, and a text that contains a part.
#include <gtest/gtest.h>

#include <exception>
#include <optional>
#include <string>

#include "tdcone/core/error.hpp"

namespace tdcone::test_support {

/// The message of the `Error` that `f` throws, or nothing when it throws
/// none (another exception goes on).
template <class Error, class F>
std::optional<std::string> thrown_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

/// The message of the UsageError `f` throws ("" and a test failure when it throws none).
template <class F>
std::string usage_error(F&& f) {
  try {
    if (std::optional<std::string> message = thrown_message<UsageError>(f)) return *message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a UsageError: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

/// The message of the IoError `f` throws, or "" when it throws none.
template <class F>
std::string io_error_of(F&& f) {
  return thrown_message<IoError>(f).value_or("");
}

}  // namespace tdcone::test_support

#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "'" << (text) << "' lacks '" << (part) << "'"
