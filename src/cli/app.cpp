// Command-line parsing: CLI11 for options, TOML configs underneath them.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <limits>
#include <sstream>
#include <utility>

#include "tdcone/cli/commands.hpp"
#include "tdcone/core/progress.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/output_guard.hpp"
#include "tdcone/mpi/agreement.hpp"
#include "tdcone/core/guard.hpp"
#include "tdcone/mpi/stall_watchdog.hpp"

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

void build(CLI::App& app, Commands& c) {
  app.set_version_flag("--version", std::string(TDCONE_VERSION));
  app.formatter(std::make_shared<HelpFormatter>());  // before the subcommands, which copy it
  app.failure_message([](const CLI::App* tdcone, const CLI::Error& e) {
    const auto chosen = tdcone->get_subcommands();
    const std::string command = chosen.empty() ? "COMMAND" : chosen.front()->get_name();
    // export and info read a result file: its absence says how to give one.
    const CLI::Option* result = chosen.empty() ? nullptr : chosen.front()->get_option_no_throw("hdf5");
    if (result && result->count() == 0 && dynamic_cast<const CLI::RequiredError*>(&e))
      return cat("tdcone: error: tdcone ", command, ": give a result file: tdcone ", command, " OUT.h5\n");
    return cat("tdcone: error: ", e.what(), "\n(`tdcone ", command, " --help` lists the options and the values they take)\n");
  });
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

// The one of `names` that `typed` is a slip of (two edits at most), or "".
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

std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ") {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

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

// CLI11 parses a vector given in reverse order.
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

// The value of --config in `args` (CLI11 validates it later), or "".
std::string config_path(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--config" && i + 1 < args.size()) return args[i + 1];
    if (args[i].starts_with("--config=")) return args[i].substr(9);
  }
  return "";
}


// Stops every rank, before any work, when an output of the chosen command is
// one of the files it reads (--force replaces outputs, never inputs).
void refuse_writing_over_inputs(const boost::mpi::communicator& comm, const Commands& c, const CLI::App* command) {
  using io::ReadFiles;
  const auto corpus = [](const CorpusOptions& o) {
    return std::vector<ReadFiles>{{"the corpus given with --input", o.inputs},
                                  {"the corpus given with --src-file", o.src_files},
                                  {"the corpus given with --tgt-file", o.tgt_files}};
  };
  const auto reference = [](const ReferenceOptions& o) {
    return std::vector<ReadFiles>{{"the reference given with --reference", {o.reference}},
                                  {"the reference given with --reference-src-file", o.src_files},
                                  {"the reference given with --reference-tgt-file", o.tgt_files}};
  };
  const auto append = [](std::vector<ReadFiles>& to, std::vector<ReadFiles> more) {
    to.insert(to.end(), more.begin(), more.end());
  };
  std::vector<ReadFiles> inputs;
  std::vector<std::pair<std::string, std::string>> outputs;  // option, file
  if (command == c.score_cmd) {
    inputs = corpus(c.score.corpus);
    append(inputs, reference(c.score.reference));
    inputs.push_back({"the embeddings given with --embeddings", {c.score.engine.embeddings}});
    outputs = {{"--output", c.score.output.output}};
  } else if (command == c.balance_cmd) {
    inputs = corpus(c.balance.corpus);
    inputs.push_back({"the ranking given with --ranking", {c.balance.ranking}});
    inputs.push_back({"the embeddings given with --embeddings", {c.balance.engine.embeddings}});
    outputs = {{"--output", c.balance.output.output}};
  } else if (command == c.sweep_cmd) {
    inputs = corpus(c.sweep.corpus);
    append(inputs, reference(c.sweep.reference));
    inputs.push_back({"the embeddings given with --embeddings", {c.sweep.engine.embeddings}});
    outputs = {{"--output", c.sweep.output.output}};
  } else if (command == c.select_cmd) {
    const SelectOptions& s = c.select;
    inputs = {{"REPR given with --representative", s.representative},
              {"AVAIL given with --available", s.available},
              {"UNAD given with --unadapted", s.unadapted},
              {"SEED given with --seed-corpus", s.seed_corpus}};
    outputs = {{"--output", s.output.output},
               {"--checkpoint", s.checkpoint.empty() ? s.output.output + ".ckpt" : s.checkpoint}};
  } else if (command == c.export_cmd) {
    inputs = {{"the result to export", {c.export_options.hdf5}},
              {"the text given with --input", c.export_options.inputs}};
    outputs = {{"--output", c.export_options.output}};
  }
  mpi::collective_step(comm, [&] {
    for (const auto& [option, file] : outputs) io::refuse_writing_over_inputs(option, file, inputs);
  });
}

// An input file the config names that is not there (io::resolve_inputs):
// the message names the config and its key, and where its paths are read from.
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

int run_command(const boost::mpi::communicator& comm, Commands& c, const CLI::App* command) {
  refuse_writing_over_inputs(comm, c, command);
  if (command == c.score_cmd) return run_score(comm, c.score, c.options_of(command).effective_toml());
  if (command == c.balance_cmd) return run_balance(comm, c.balance, c.options_of(command).effective_toml());
  if (command == c.sweep_cmd) return run_sweep(comm, c.sweep, c.options_of(command).effective_toml());
  if (command == c.select_cmd) return run_select(comm, c.select, c.options_of(command).effective_toml());
  if (command == c.export_cmd) return run_export(comm, c.export_options);
  if (command == c.info_cmd) return run_info(comm, c.info);
  return run_synth(comm, c.synth);
}

}  // namespace

int run_cli(const boost::mpi::communicator& comm, int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
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
