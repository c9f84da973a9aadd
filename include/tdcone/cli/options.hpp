#pragma once
// Registering command-line options so that a TOML config can supply them and
// the effective configuration can be written back as TOML (docs/spec.md §7).
#include <CLI/CLI.hpp>
#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tdcone/cli/value_rules.hpp"

namespace tdcone::cli {

/// The options of one subcommand. Every option has a long name, which is also
/// its TOML key ("--src-col" <-> src-col).
class OptionSet {
 public:
  explicit OptionSet(CLI::App* command) : command_(command) {}

  CLI::App* command() const { return command_; }

  /// An option whose values must follow `rule`, on the command line and in a config.
  template <class T>
  CLI::Option* add(const std::string& key, T& value, const std::string& help, ValueRule rule) {
    CLI::Option* option = declare(key, value, help);
    follow(option, key, std::move(rule));
    return option;
  }
  /// Free text (paths, field names): any value.
  template <class T>
  CLI::Option* add(const std::string& key, T& value, const std::string& help) {
    static_assert(std::is_same_v<T, std::string> || std::is_same_v<T, std::vector<std::string>>,
                  "numbers and names from a list take a ValueRule");
    return declare(key, value, help);
  }
  /// An option about how the run reports, not part of the configuration (--progress-every).
  template <class T>
  CLI::Option* add_unrecorded(const std::string& key, T& value, const std::string& help, ValueRule rule) {
    CLI::Option* option = command_->add_option("--" + key, value, help)->capture_default_str();
    follow(option, key, std::move(rule));
    return option;
  }
  /// A boolean switch with an explicit negation: "--key" / "--no-key".
  CLI::Option* add_switch(const std::string& key, bool& value, const std::string& help);
  /// A flag that is not part of the configuration (--force).
  CLI::Option* add_action_flag(const std::string& key, bool& value, const std::string& help);

  /// The effective configuration (all options, defaults included) as TOML.
  std::string effective_toml() const;

  /// The rule of option `key`, or nullptr for free text.
  const ValueRule* rule(const std::string& key) const;

 private:
  template <class T>
  CLI::Option* declare(const std::string& key, T& value, const std::string& help) {
    auto* option = command_->add_option("--" + key, value, help)->capture_default_str();
    renderers_.push_back([key, &value](toml::table& table) { insert(table, key, value); });
    return option;
  }
  void follow(CLI::Option* option, const std::string& key, ValueRule rule);

  static void insert(toml::table& table, const std::string& key, const std::string& value);
  static void insert(toml::table& table, const std::string& key, const std::vector<std::string>& value);
  static void insert(toml::table& table, const std::string& key, const std::vector<double>& value);
  static void insert(toml::table& table, const std::string& key, const std::vector<std::uint64_t>& value);
  static void insert(toml::table& table, const std::string& key, bool value);
  static void insert(toml::table& table, const std::string& key, double value);
  template <class Int>
  static void insert(toml::table& table, const std::string& key, Int value) {
    // TOML integers are signed 64-bit: a larger seed is written as a string, which reads back the same.
    if (std::cmp_greater(value, std::numeric_limits<std::int64_t>::max()))
      table.insert_or_assign(key, std::to_string(value));
    else
      table.insert_or_assign(key, static_cast<std::int64_t>(value));
  }

  CLI::App* command_;
  std::vector<std::function<void(toml::table&)>> renderers_;
  std::map<std::string, ValueRule> rules_;  // by key
};

/// Command-line arguments equivalent to the keys of TOML file `path` that
/// `command_line` does not set itself (the command line wins).
/// Throws UsageError for unreadable files, syntax errors, unknown keys and
/// values the options do not take (naming the file, the key and what it takes).
std::vector<std::string> config_arguments(const std::string& path, const OptionSet& options,
                                          const std::vector<std::string>& command_line);

}  // namespace tdcone::cli
