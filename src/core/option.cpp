#include "tdcone/core/option.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace tdcone {

namespace {
std::vector<std::string>& installed_names() {
  static std::vector<std::string> names;
  return names;
}
}  // namespace

const std::string& option_name(Option option) {
  const std::vector<std::string>& names = installed_names();
  const auto index = static_cast<std::size_t>(option);
  if (index >= names.size()) {
    std::fprintf(stderr, "tdcone: internal error: option %zu named before the command line's option names were "
                 "installed (cli::install_option_names)\n", index);
    std::abort();
  }
  return names[index];
}

std::ostream& operator<<(std::ostream& out, Option option) { return out << option_name(option); }

void set_option_names(const OptionNames& names) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) throw std::logic_error("option " + std::to_string(i) + " has no name");
    words.emplace_back(names[i]);
  }
  installed_names() = std::move(words);
}

}  // namespace tdcone
