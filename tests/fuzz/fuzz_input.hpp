#pragma once
// Helpers shared by the fuzz targets.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tdcone/cli/option_names.hpp"

namespace tdcone::fuzz {

/// The messages of the code under test name options as tdcone's do (before
/// any input: at the program's start).
inline const bool option_names_installed = (cli::install_option_names(), true);

/// A path to a file holding exactly the fuzz input, for readers that take a
/// path. One in-memory file (memfd) is rewritten for every input: no disk I/O,
/// nothing left behind when a run stops.
inline std::string as_file(const std::uint8_t* data, std::size_t size) {
  static const int fd = ::memfd_create("tdcone-fuzz", MFD_CLOEXEC);
  if (fd < 0 || ::ftruncate(fd, 0) != 0 || (size > 0 && ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)))
    std::abort();
  return "/proc/self/fd/" + std::to_string(fd);
}

/// The fuzz input as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Calls `f` with every '\n'-separated line of `text` (a corpus file's lines).
template <class F>
void for_each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    f(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
}

}  // namespace tdcone::fuzz

/// An invariant of the code under test: when broken, the run stops with a
/// crash that libFuzzer reports and saves.
#define FUZZ_CHECK(condition)                                                                  \
  do {                                                                                         \
    if (!(condition)) {                                                                        \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #condition);   \
      std::abort();                                                                            \
    }                                                                                          \
  } while (0)
