#include "tdcone/cli/options.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "tdcone/core/error.hpp"

namespace tdcone::cli {

namespace {

// CLI11 names the option itself: "--shards: -1 is not a whole number from 0 to …".
CLI::Validator validator(ValueRule rule) {
  const std::string brief = rule.brief;
  return CLI::Validator(
      [rule = std::move(rule)](std::string& text) { return rule.accept(text) ? std::string() : not_accepted(text, rule); },
      brief);
}

}  // namespace

void OptionSet::follow(CLI::Option* option, const std::string& key, ValueRule rule) {
  option->transform(validator(rule));  // a transform: CLI11 then converts the rewritten text
  rules_.insert_or_assign(key, std::move(rule));
}

CLI::Option* OptionSet::add_switch(const std::string& key, bool& value, const std::string& help) {
  renderers_.push_back([key, &value](toml::table& table) { insert(table, key, value); });
  auto* option = command_->add_flag("--" + key + ",!--no-" + key, value, help + (value ? " (default: on)" : " (default: off)"));
  follow(option, key, switch_value());
  return option;
}

CLI::Option* OptionSet::add_action_flag(const std::string& key, bool& value, const std::string& help) {
  auto* option = command_->add_flag("--" + key, value, help);
  follow(option, key, switch_value());
  return option;
}

const ValueRule* OptionSet::rule(const std::string& key) const {
  const auto found = rules_.find(key);
  return found == rules_.end() ? nullptr : &found->second;
}

std::string OptionSet::effective_toml() const {
  toml::table table;
  for (const auto& render : renderers_) render(table);
  std::ostringstream out;
  out << table << "\n";
  return out.str();
}

void OptionSet::insert(toml::table& table, const std::string& key, const std::string& value) {
  table.insert_or_assign(key, value);
}
void OptionSet::insert(toml::table& table, const std::string& key, const std::vector<std::string>& value) {
  toml::array array;
  for (const auto& v : value) array.push_back(v);
  table.insert_or_assign(key, std::move(array));
}
void OptionSet::insert(toml::table& table, const std::string& key, const std::vector<double>& value) {
  toml::array array;
  for (double v : value) array.push_back(v);
  table.insert_or_assign(key, std::move(array));
}
void OptionSet::insert(toml::table& table, const std::string& key, const std::vector<std::uint64_t>& value) {
  toml::array array;  // bounds of --length-buckets: within TOML's signed 64-bit integers
  for (std::uint64_t v : value) array.push_back(static_cast<std::int64_t>(v));
  table.insert_or_assign(key, std::move(array));
}
void OptionSet::insert(toml::table& table, const std::string& key, bool value) { table.insert_or_assign(key, value); }
void OptionSet::insert(toml::table& table, const std::string& key, double value) { table.insert_or_assign(key, value); }

namespace {

// A TOML value as the config file spells it: 'three', 2.0, [ 1, 2 ].
std::string toml_text(const toml::node& node) {
  std::ostringstream out;
  node.visit([&](const auto& value) { out << value; });
  return out.str();
}

// A scalar as an option value: strings as they are, numbers as TOML writes
// them (a float keeps its ".0", so a whole-number option refuses 2.0).
std::string scalar_text(const toml::node& node, const std::string& path, const std::string& key) {
  if (const auto* text = node.as_string()) return text->get();
  if (node.is_integer() || node.is_floating_point() || node.is_boolean()) return toml_text(node);
  throw UsageError(cat(path, ": ", key, " = ", toml_text(node), ": must be a string, number, boolean or array of them"));
}

bool given(const std::vector<std::string>& args, const std::string& key) {
  for (const auto& a : args)
    if (a == "--" + key || a == "--no-" + key || a.starts_with("--" + key + "=")) return true;
  return false;
}

}  // namespace

std::vector<std::string> config_arguments(const std::string& path, const OptionSet& options,
                                          const std::vector<std::string>& command_line) {
  const CLI::App& command = *options.command();
  toml::table table;
  if (std::ifstream probe(path); !probe)
    throw UsageError(cat("cannot read config file ", path, " (--config): ", std::strerror(errno)));
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << e.source().begin;
    throw UsageError(cat(path, ": ", e.description(), " (", where.str(), ")"));
  }
  std::vector<std::string> arguments;
  for (const auto& entry : table) {  // not a structured binding: clang 14 cannot capture one in a lambda
    const std::string key(entry.first.str());
    const toml::node& node = entry.second;
    const CLI::Option* option = command.get_option_no_throw("--" + key);
    if (option == nullptr || key == "config" || key == "help")
      throw UsageError(cat(path, ": unknown key '", key, "' for tdcone ", command.get_name()));
    if (given(command_line, key)) continue;
    const ValueRule* rule = options.rule(key);
    auto refuse = [&](const std::string& what) {
      throw UsageError(cat(path, ": ", key, " = ", toml_text(node), ": --", key, " takes ", what));
    };
    if (option->get_expected_max() == 0) {  // a switch: true or false, nothing else
      if (!node.is_boolean()) refuse(rule ? rule->accepts : "true or false");
      if (*node.value<bool>())
        arguments.push_back("--" + key);
      else if (!option->get_fnames().empty())  // a flag without "--no-KEY" is off unless given
        arguments.push_back("--no-" + key);
      continue;
    }
    const std::string takes = rule ? rule->accepts : "a string";
    if (node.is_boolean()) refuse(takes);
    std::vector<std::string> values;
    if (const auto* array = node.as_array()) {
      if (option->get_items_expected_max() <= 1) refuse(cat(takes, ", one value, not a list"));
      for (const auto& element : *array) values.push_back(scalar_text(element, path, key));
    } else {
      values.push_back(scalar_text(node, path, key));
    }
    for (std::string& value : values) {
      if (rule && !rule->accept(value)) refuse(takes);
      if (value.empty())  // CLI11 reads "--key=" as "--key" and takes the next argument as its value
        arguments.insert(arguments.end(), {"--" + key, ""});
      else
        arguments.push_back("--" + key + "=" + value);
    }
  }
  return arguments;
}

}  // namespace tdcone::cli
