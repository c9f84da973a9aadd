// Command-line parsing: CLI11 for options, TOML configs underneath them.
#include <CLI/CLI.hpp>

#include <iostream>
#include <limits>
#include <sstream>
#include <utility>

#include "tdcone/cli/app.hpp"
#include "tdcone/cli/command_line.hpp"
#include "tdcone/cli/info_command.hpp"
#include "tdcone/cli/input_guard.hpp"
#include "tdcone/cli/option_names.hpp"
#include "tdcone/cli/synth_command.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/mpi/agreement.hpp"
#include "tdcone/mpi/stall_watchdog.hpp"
#include "tdcone/engine/memory_budget.hpp"

namespace tdcone::cli {

namespace {

const char* kDescription =
    "tdcone: distributed TD-CONE and cynical-selection scorer for parallel text corpora.\n"
    "Runs as one process, under `mpirun -n N`, or under SLURM (`srun --mpi=pmix`).\n"
    "`tdcone COMMAND --help` documents every option; `--config FILE` reads them from TOML\n"
    "(keys named like the long options; the command line wins).";

// One parse of the command line; all option values live here.
struct Commands {
  ScoreOptions score;
  BalanceOptions balance;
  SweepOptions sweep;
  SelectOptions select;
  ExportOptions export_options;
  InfoOptions info;
  SynthOptionsCli synth;
  std::string config;
  double progress_every = 2.0;
  double stall_timeout = mpi::kDefaultStallTimeoutSeconds;
  bool quiet = false;
  std::vector<std::unique_ptr<OptionSet>> option_sets;
  CLI::App *score_cmd = nullptr, *balance_cmd = nullptr, *sweep_cmd = nullptr, *select_cmd = nullptr, *export_cmd = nullptr, *info_cmd = nullptr,
           *synth_cmd = nullptr;

  OptionSet& options_of(const CLI::App* command) {
    for (auto& set : option_sets)
      if (set->command() == command) return *set;
    throw std::logic_error("unknown command");
  }
};

void add_quiet(OptionSet& options, bool& quiet) {
  options.add_action_flag(
      "quiet", quiet,
      "No progress lines and no list of bad lines on standard error (one line counts them); errors, warnings and "
      "the summary stay");
}

// The commands whose ranks work together (the others' extra ranks only wait for rank 0).
void add_stall_timeout(OptionSet& options, double& seconds) {
  options.add_unrecorded("stall-timeout", seconds,
                         "Seconds without progress on any rank (a stopped process, a lost node, a hung file system) "
                         "after which every rank stops, naming the stalled rank, its host and its phase; also how "
                         "long a failing rank waits for the others (0 = no limit)",
                         real_number(0, std::numeric_limits<double>::infinity()));
}

CLI::App* add_command(CLI::App& app, Commands& c, const std::string& name, const std::string& help) {
  CLI::App* command = app.add_subcommand(name, help);
  command->add_option("--config", c.config, "TOML file with options (keys = long option names)")->check(CLI::ExistingFile);
  c.option_sets.push_back(std::make_unique<OptionSet>(command));
  c.option_sets.back()->add_unrecorded("progress-every", c.progress_every,
                                       "Seconds between progress lines on standard error (0 = none)",
                                       real_number(0, std::numeric_limits<double>::infinity()));
  add_quiet(*c.option_sets.back(), c.quiet);
  return command;
}

void build(CLI::App& app, Commands& c) {
  app.set_version_flag("--version", std::string(TDCONE_VERSION));
  app.formatter(help_formatter());  // before the subcommands, which copy it
  app.failure_message(failure_message);
  app.require_subcommand(1, 1);
  c.score_cmd = add_command(app, c, "score",
                            "Corpus and pair TD-CONE (/corpus, /pairs); TD-CONE_REL with --reference; per-shard scores with --shards");
  add_score_options(c.options_of(c.score_cmd), c.score);
  add_stall_timeout(c.options_of(c.score_cmd), c.stall_timeout);
  c.balance_cmd = add_command(app, c, "balance",
                              "A label-balanced subset (/balance: kept lines per combination, best first; "
                              "/combinations: before, target, after): joint, marginal or skewed (--mode)");
  add_balance_options(c.options_of(c.balance_cmd), c.balance);
  add_stall_timeout(c.options_of(c.balance_cmd), c.stall_timeout);
  c.sweep_cmd = add_command(app, c, "sweep",
                            "TD-CONE (and TD-CONE_REL) of every score-threshold subset in one pass (/sweep)");
  add_sweep_options(c.options_of(c.sweep_cmd), c.sweep);
  add_stall_timeout(c.options_of(c.sweep_cmd), c.stall_timeout);
  c.select_cmd = add_command(app, c, "select",
                             "Cynical data selection: rank every AVAIL line by how much it helps model REPR (/selection)");
  add_select_options(c.options_of(c.select_cmd), c.select);
  add_stall_timeout(c.options_of(c.select_cmd), c.stall_timeout);
  c.export_cmd = add_command(app, c, "export",
                             "Write a table of a tdcone HDF5 result as TSV or JSON lines: filtered, sorted, top N, "
                             "optionally joined with the input text (checked against the run's inputs). A result "
                             "of a newer major tdcone_version, or whose table lacks a column tdcone writes, is refused");
  add_export_options(c.options_of(c.export_cmd), c.export_options);
  // info has no configuration and no long phases: no --config, no --progress-every
  // (--quiet, which every command takes, changes nothing).
  c.info_cmd = app.add_subcommand("info", "Print what a tdcone HDF5 result holds: the run, its inputs and "
                                          "configuration, every table with its rows, columns and attributes");
  c.option_sets.push_back(std::make_unique<OptionSet>(c.info_cmd));
  add_info_options(c.options_of(c.info_cmd), c.info);
  add_quiet(c.options_of(c.info_cmd), c.quiet);
  c.synth_cmd = add_command(app, c, "synth",
                            "Write a deterministic synthetic corpus: src \\t tgt \\t score \\t id (default: Twitter-URL-shaped; --profile)");
  add_synth_options(c.options_of(c.synth_cmd), c.synth);
}

// Refuses to write over the command's inputs, then runs it.
int run_command(const boost::mpi::communicator& comm, Commands& c, const CLI::App* command) {
  const auto toml = [&] { return c.options_of(command).effective_toml(); };
  const auto guarded = [&](const CommandFiles& files) { refuse_writing_over_inputs(comm, files); };
  if (command == c.score_cmd) return guarded(files_of(c.score)), run_score(comm, c.score, toml());
  if (command == c.balance_cmd) return guarded(files_of(c.balance)), run_balance(comm, c.balance, toml());
  if (command == c.sweep_cmd) return guarded(files_of(c.sweep)), run_sweep(comm, c.sweep, toml());
  if (command == c.select_cmd) return guarded(files_of(c.select)), run_select(comm, c.select, toml());
  if (command == c.export_cmd) return guarded(files_of(c.export_options)), run_export(comm, c.export_options);
  guarded({});  // info and synth: nothing to check, but every rank takes the same steps
  return command == c.info_cmd ? run_info(comm, c.info) : run_synth(comm, c.synth);
}

}  // namespace

std::vector<std::string> long_option_names() {
  Commands c;
  CLI::App app{kDescription, "tdcone"};
  build(app, c);
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; }))
    for (const CLI::Option* option : command->get_options())
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  return names;
}

int run_cli(const boost::mpi::communicator& comm, int argc, char** argv) {
  engine::note_resident_at_start();  // what MPI and the libraries hold: the memory budget counts it
  std::vector<std::string> args(argv + 1, argv + argc);
  install_option_names();  // before any message names an option
  // Before anything that could make ranks go separate ways (MPMD launches,
  // per-node wrappers): past here every rank parses the same arguments.
  mpi::agree_on_arguments(comm, args, "the command line");
  std::ostringstream silent;
  std::ostream& out = comm.rank() == 0 ? std::cout : silent;
  std::ostream& err = comm.rank() == 0 ? std::cerr : silent;
  Commands c;
  CLI::App app{kDescription, "tdcone"};
  build(app, c);
  const auto named = [&](const CLI::App* command) { return command->get_name() == args[0]; };
  if (args.empty() || (!args[0].starts_with("-") && app.get_subcommands(named).empty())) {
    const std::string guess = args.empty() ? "" : closest(args[0], command_names(app));
    err << "tdcone: error: " << (args.empty() ? "give a command" : "unknown command '" + args[0] + "'")
        << (guess.empty() ? "" : ": did you mean '" + guess + "'?") << " (commands: " << joined(command_names(app))
        << "; `tdcone --help` describes them)\n";
    return 2;
  }

  // A config's keys go right after the command name, before the command
  // line's own options, which therefore win.
  const std::string config = config_path(args);
  std::vector<std::string> config_args;
  if (!config.empty()) {
    const auto commands = app.get_subcommands(named);
    std::string config_error;
    if (!commands.empty()) {
      try {
        config_args = config_arguments(config, c.options_of(commands.front()), args);
        args.insert(args.begin() + 1, config_args.begin(), config_args.end());
      } catch (const UsageError& e) {
        config_error = e.what();
      }
    }
    // The file may differ between nodes, or be missing on some.
    mpi::agree_on_arguments(comm, args, cat("the command line with the options of ", config),
                            config_error.empty() ? 0 : 2, config_error);
  }
  try {
    parse(app, args);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err) == 0 ? 0 : 2;  // --help/--version, or a usage error
  }
  set_progress_interval(c.progress_every);
  set_quiet(c.quiet);
  mpi::set_failure_patience(c.stall_timeout);
  CLI::App* command = app.get_subcommands().front();
  // Watched where the ranks work together: the commands that take --stall-timeout.
  const bool together = command->get_option_no_throw("--stall-timeout") != nullptr;
  mpi::StallWatchdog watchdog(together ? c.stall_timeout : 0);
  try {
    const int status = run_command(comm, c, command);
    watchdog.stop();
    return status;
  } catch (const mpi::CollectiveError& e) {
    watchdog.stop();  // every rank has it
    throw mpi::CollectiveError(from_config(e.what(), config, config_args), e.exit_status, e.consequence);
  }
}

}  // namespace tdcone::cli
