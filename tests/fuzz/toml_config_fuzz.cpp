// `--config` TOML files through cli::config_arguments for every command, and
// the arguments it returns through CLI11, as run_cli does.
#include <algorithm>
#include <memory>

#include "fuzz_input.hpp"
#include "tdcone/cli/export_command.hpp"
#include "tdcone/cli/score_command.hpp"
#include "tdcone/cli/select_command.hpp"
#include "tdcone/cli/sweep_command.hpp"
#include "tdcone/cli/synth_command.hpp"
#include "tdcone/core/error.hpp"

using namespace tdcone;

namespace {

// The commands and their options (their values are written by CLI11).
struct Commands {
  cli::ScoreOptions score;
  cli::SweepOptions sweep;
  cli::SelectOptions select;
  cli::ExportOptions export_options;
  cli::SynthOptionsCli synth;
  CLI::App app;
  std::vector<std::unique_ptr<cli::OptionSet>> option_sets;

  Commands() {
    add("score", [&](cli::OptionSet& o) { cli::add_score_options(o, score); });
    add("sweep", [&](cli::OptionSet& o) { cli::add_sweep_options(o, sweep); });
    add("select", [&](cli::OptionSet& o) { cli::add_select_options(o, select); });
    add("export", [&](cli::OptionSet& o) { cli::add_export_options(o, export_options); });
    add("synth", [&](cli::OptionSet& o) { cli::add_synth_options(o, synth); });
  }
  template <class AddOptions>
  void add(const std::string& name, AddOptions add_options) {
    option_sets.push_back(std::make_unique<cli::OptionSet>(app.add_subcommand(name)));
    add_options(*option_sets.back());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Built once: config_arguments only reads the commands, and CLI11 clears
  // the results of the previous parse itself.
  static Commands commands;
  const std::string path = fuzz::as_file(data, size);
  for (const auto& option_set : commands.option_sets) {
    CLI::App* command = option_set->command();
    std::vector<std::string> args;
    try {
      args = cli::config_arguments(path, *option_set, {});
    } catch (const UsageError&) {
      continue;  // bad TOML, or a key this command does not have: the documented error
    }
    // CLI11 may refuse the values (a usage error), nothing else.
    args.insert(args.begin(), command->get_name());
    std::reverse(args.begin(), args.end());  // CLI11 parses a vector in reverse order
    try {
      commands.app.parse(args);
    } catch (const CLI::ParseError&) {
    }
  }
  return 0;
}
