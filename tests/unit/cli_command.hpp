#pragma once
// One tdcone subcommand's options declared as cli declares them (its
// add_*_options) and a command line parsed into its options struct: the
// typed values, or the message of the parse error.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tdcone/cli/command_line.hpp"
#include "tdcone/cli/options.hpp"

namespace tdcone::test_support {

template <class Options>
struct ParsedCommand {
  CLI::App app{"test", "tdcone"};
  CLI::App* sub;
  cli::OptionSet options;
  Options values;

  /// `command`: "score"; `add`: its add_*_options.
  template <class Add>
  ParsedCommand(const std::string& command, Add&& add) : sub(app.add_subcommand(command)), options(sub) {
    add(options, values);
  }
  /// Parses `args` (after the command's name); "" when they parse, else the error's message.
  std::string parse(std::vector<std::string> args) {
    args.insert(args.begin(), sub->get_name());
    try {
      cli::parse(app, args);
      return "";
    } catch (const CLI::ParseError& e) {
      return e.what();
    }
  }
};

}  // namespace tdcone::test_support
