// The command line's words: near-misses, stray arguments, --config's place.
#include "tdcone/cli/command_line.hpp"

#include <algorithm>
#include <utility>

#include "tdcone/core/error.hpp"

namespace tdcone::cli {

namespace {

// CLI11 lists a switch as "--lowercase,--no-lowercase{false}", which reads as
// a default of false; name both forms and let the help text give the default.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool positional) const override {
    if (positional || option->get_fnames().empty()) return CLI::Formatter::make_option_name(option, positional);
    std::string names;
    for (const auto& name : option->get_lnames()) names += (names.empty() ? "--" : ", --") + name;
    return names;
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() { return std::make_shared<HelpFormatter>(); }

std::string failure_message(const CLI::App* tdcone, const CLI::Error& e) {
  const auto chosen = tdcone->get_subcommands();
  const std::string command = chosen.empty() ? "COMMAND" : chosen.front()->get_name();
  // export and info read a result file: its absence says how to give one.
  const CLI::Option* result = chosen.empty() ? nullptr : chosen.front()->get_option_no_throw("hdf5");
  if (result && result->count() == 0 && dynamic_cast<const CLI::RequiredError*>(&e))
    return cat("tdcone: error: tdcone ", command, ": give a result file: tdcone ", command, " OUT.h5\n");
  return cat("tdcone: error: ", e.what(), "\n(`tdcone ", command, " --help` lists the options and the values they take)\n");
}

namespace {

// Edits (insertions, deletions, substitutions) that turn `a` into `b`.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest(const std::string& typed, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& name : names)
    if (const std::size_t d = edit_distance(typed, name); d < best_distance) best = name, best_distance = d;
  return best;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(command->get_name());
  return names;
}

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

namespace {

// What the arguments `command` does not take are, in the command line's order
// (CLI11 lists them last first): an option of other commands names them, one
// of none the command's option it is a slip of; the value after such an
// option is its own, not another stray argument.
std::string extras_message(const CLI::App& app, const CLI::App& command, const std::vector<std::string>& args) {
  std::vector<std::string> left = app.remaining(true), options, others, own_options;
  for (const CLI::Option* option : command.get_options())
    for (const auto& long_name : option->get_lnames()) own_options.push_back("--" + long_name);
  bool after_option = false;
  for (const auto& arg : args) {
    const auto found = std::find(left.begin(), left.end(), arg);
    const bool value = std::exchange(after_option, false);
    if (found == left.end()) continue;
    left.erase(found);
    if (!arg.starts_with("--")) {
      if (!value) others.push_back(arg);
      continue;
    }
    const std::size_t equals = arg.find('=');
    after_option = equals == std::string::npos;
    const std::string name = arg.substr(0, equals);
    std::vector<std::string> owners;
    for (const CLI::App* other : app.get_subcommands([](const CLI::App*) { return true; }))
      if (other != &command && other->get_option_no_throw(name)) owners.push_back(other->get_name());
    const std::string slip = closest(name, own_options);
    options.push_back(cat(name, " is not an option of ", command.get_name(),
                          !owners.empty() ? cat(" (it belongs to: ", joined(owners), ")")
                          : !slip.empty() ? cat(" (did you mean ", slip, "?)")
                                          : ""));
  }
  std::string text = joined(options, "; ");
  if (!others.empty())
    text += cat(text.empty() ? "" : "; ", others.size() > 1 ? "arguments" : "argument", " not expected: ",
                joined(others, " "));
  return text;
}

}  // namespace

void parse(CLI::App& app, std::vector<std::string> args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ExtrasError&) {
    const auto chosen = app.get_subcommands();
    if (chosen.empty()) throw;
    throw CLI::ExtrasError(extras_message(app, *chosen.front(), args), CLI::ExitCodes::ExtrasError);
  }
}

std::string config_path(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--config" && i + 1 < args.size()) return args[i + 1];
    if (args[i].starts_with("--config=")) return args[i].substr(9);
  }
  return "";
}


std::string from_config(const std::string& message, const std::string& config, const std::vector<std::string>& config_args) {
  for (const auto& arg : config_args) {
    const std::size_t equals = arg.find('=');
    if (equals == std::string::npos) continue;
    const std::string value = arg.substr(equals + 1);
    if (message.ends_with("input file not found: " + value) || message.ends_with("no file matches " + value))
      return cat(message, " (from --config ", config, ": ", arg.substr(2, equals - 2), " = '", value,
                 "'; a config's paths are relative to the working directory, not to the config)");
  }
  return message;
}

}  // namespace tdcone::cli
