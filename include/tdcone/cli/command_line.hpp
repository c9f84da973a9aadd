#pragma once
// The command line's words: help layout, parse errors with what was meant,
// and the place of --config's options.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace tdcone::cli {

/// Lists a switch as "--lowercase, --no-lowercase" (CLI11's "{false}" reads as a default).
std::shared_ptr<CLI::Formatter> help_formatter();

/// The message of a parse error: what to give, and where the options are listed.
std::string failure_message(const CLI::App* tdcone, const CLI::Error& e);

/// The one of `names` that `typed` is a slip of (two edits at most), or "".
std::string closest(const std::string& typed, const std::vector<std::string>& names);
/// The names of the subcommands of `app`.
std::vector<std::string> command_names(const CLI::App& app);
std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ");

/// Parses `args` (the command line without the program name); an argument the
/// chosen command does not take is refused naming the command that does, or
/// the option it is a slip of.
void parse(CLI::App& app, std::vector<std::string> args);

/// The value of --config in `args` (CLI11 validates it later), or "".
std::string config_path(const std::vector<std::string>& args);

/// An input file the config names that is not there (io::resolve_inputs):
/// the message names the config and its key, and where its paths are read from.
std::string from_config(const std::string& message, const std::string& config, const std::vector<std::string>& config_args);

}  // namespace tdcone::cli
