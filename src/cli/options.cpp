#include "tdcone/cli/options.hpp"

#include <sstream>

#include "tdcone/error.hpp"

namespace tdcone::cli {

CLI::Option* OptionSet::add_switch(const std::string& key, bool& value, const std::string& help) {
  renderers_.push_back([key, &value](toml::table& table) { insert(table, key, value); });
  return command_->add_flag("--" + key + ",!--no-" + key, value, help + (value ? " (default: on)" : " (default: off)"));
}

CLI::Option* OptionSet::add_action_flag(const std::string& key, bool& value, const std::string& help) {
  return command_->add_flag("--" + key, value, help);
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
void OptionSet::insert(toml::table& table, const std::string& key, bool value) { table.insert_or_assign(key, value); }
void OptionSet::insert(toml::table& table, const std::string& key, double value) { table.insert_or_assign(key, value); }

namespace {

std::string scalar_text(const toml::node& node, const std::string& path, const std::string& key) {
  if (auto s = node.value<std::string>(); s && node.is_string()) return *s;
  if (node.is_integer()) return std::to_string(*node.value<std::int64_t>());
  if (node.is_floating_point()) {
    std::ostringstream out;
    out.precision(17);
    out << *node.value<double>();
    return out.str();
  }
  if (node.is_boolean()) return *node.value<bool>() ? "true" : "false";
  throw UsageError(cat("config ", path, ": key '", key, "' must be a string, number, boolean or array of them"));
}

}  // namespace

namespace {
bool given(const std::vector<std::string>& args, const std::string& key) {
  for (const auto& a : args)
    if (a == "--" + key || a == "--no-" + key || a.starts_with("--" + key + "=")) return true;
  return false;
}
}  // namespace

std::vector<std::string> config_arguments(const std::string& path, const CLI::App& command,
                                          const std::vector<std::string>& command_line) {
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << e.source().begin;
    throw UsageError(cat("config ", path, ": ", e.description(), " (", where.str(), ")"));
  }
  std::vector<std::string> arguments;
  for (const auto& [key_view, node] : table) {
    const std::string key(key_view.str());
    const CLI::Option* option = command.get_option_no_throw("--" + key);
    if (option == nullptr || key == "config" || key == "help")
      throw UsageError(cat("config ", path, ": unknown key '", key, "' for tdcone ", command.get_name()));
    if (given(command_line, key)) continue;
    if (const auto* array = node.as_array()) {
      for (const auto& element : *array) arguments.push_back("--" + key + "=" + scalar_text(element, path, key));
    } else if (node.is_boolean()) {
      if (*node.value<bool>())
        arguments.push_back("--" + key);
      else if (!option->get_fnames().empty())  // a flag without "--no-KEY" is off unless given
        arguments.push_back("--no-" + key);
    } else {
      arguments.push_back("--" + key + "=" + scalar_text(node, path, key));
    }
  }
  return arguments;
}

}  // namespace tdcone::cli
