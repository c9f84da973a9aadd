#pragma once
// Registering command-line options so that a TOML config can supply them and
// the effective configuration can be written back as TOML (SPEC §7).
#include <CLI/CLI.hpp>
#include <toml++/toml.h>

#include <functional>
#include <string>
#include <vector>

namespace tdcone::cli {

/// The options of one subcommand. Every option has a long name, which is also
/// its TOML key ("--src-col" <-> src-col).
class OptionSet {
 public:
  explicit OptionSet(CLI::App* command) : command_(command) {}

  CLI::App* command() const { return command_; }

  template <class T>
  CLI::Option* add(const std::string& key, T& value, const std::string& help) {
    auto* option = command_->add_option("--" + key, value, help)->capture_default_str();
    renderers_.push_back([key, &value](toml::table& table) { insert(table, key, value); });
    return option;
  }
  /// A boolean switch with an explicit negation: "--key" / "--no-key".
  CLI::Option* add_switch(const std::string& key, bool& value, const std::string& help);
  /// A flag that is not part of the configuration (--force).
  CLI::Option* add_action_flag(const std::string& key, bool& value, const std::string& help);

  /// The effective configuration (all options, defaults included) as TOML.
  std::string effective_toml() const;

 private:
  static void insert(toml::table& table, const std::string& key, const std::string& value);
  static void insert(toml::table& table, const std::string& key, const std::vector<std::string>& value);
  static void insert(toml::table& table, const std::string& key, const std::vector<double>& value);
  static void insert(toml::table& table, const std::string& key, bool value);
  static void insert(toml::table& table, const std::string& key, double value);
  template <class Int>
  static void insert(toml::table& table, const std::string& key, Int value) {
    table.insert_or_assign(key, static_cast<std::int64_t>(value));
  }

  CLI::App* command_;
  std::vector<std::function<void(toml::table&)>> renderers_;
};

/// Command-line arguments equivalent to the keys of TOML file `path` that
/// `command_line` does not set itself (the command line wins).
/// Throws UsageError for unreadable files, syntax errors and unknown keys.
std::vector<std::string> config_arguments(const std::string& path, const CLI::App& command,
                                          const std::vector<std::string>& command_line);

}  // namespace tdcone::cli
