#pragma once
// The subcommands of tdcone: options (with their --help text) and runners.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/cli/options.hpp"
#include "tdcone/cli/run_report.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::cli {

/// Which corpus, how to read and tokenize it (SPEC §2).
struct CorpusOptions {
  std::vector<std::string> inputs;
  // A parallel two-file corpus instead of --input: line k of src file i and
  // line k of tgt file i make a pair (io/parallel_files.hpp).
  std::vector<std::string> src_files, tgt_files;
  std::string format = "tsv";
  int src_col = 1, tgt_col = 2, score_col = 0, id_col = 0;
  std::string src_field = "src", tgt_field = "tgt", score_field, id_field;
  std::string tokenizer = "punct";
  bool lowercase = true;
  bool reverse = false;
  std::string on_bad_line = "skip";
  std::uint64_t max_line_bytes = 1 << 20;
  double max_bad_fraction = 0.5;

  /// `input`: "required" (--input, or --src-file with --tgt-file, checked by
  /// check_sources, not by the parser), "columns" (a corpus with a score or label
  /// column: --src-file/--tgt-file are parsed, to be refused, but not in the help) or "lines" (selection: no --input, and only the
  /// options that say how a line's text is read: no score, id or --reverse).
  void add_to(OptionSet& options, const std::string& input);
  /// The corpus is --src-file/--tgt-file, not --input.
  bool parallel() const { return !src_files.empty() || !tgt_files.empty(); }
  /// Throws UsageError unless exactly one of --input and --src-file with
  /// --tgt-file names the corpus, and, for the two-file form, no option for
  /// columns or fields is given (its lines are whole sides: no score, no id).
  void check_sources() const;
  text::ReadOptions read_options() const;
  /// --on-bad-line, --max-bad-fraction, and the options to check when lines are bad.
  BadLinePolicy bad_line_policy() const;
  /// As selection reads a line of `side` ("src", "tgt" or "both"): a one-sided
  /// line is its one column (or field) read as both sides, so a file of one
  /// sentence per line works as is.
  text::ReadOptions line_read_options(const std::string& side) const;
};

/// Label columns or fields of a corpus (label-aware curation): how each
/// line's labels are read, named and bucketed.
struct LabelOptions {
  std::string cols;    // TSV: "5,6"
  std::string fields;  // JSONL: "formality,arousal"
  std::string names;   // default: the fields, or "col5", "col6"
  std::vector<std::string> buckets;  // "NAME=CUT,CUT,..."

  void add_to(OptionSet& options);
  bool given() const { return !cols.empty() || !fields.empty(); }
  /// Puts the labels into `read` (its fields and label spec). Throws UsageError.
  void apply(text::ReadOptions& read) const;
};

/// Where and how the HDF5 result is written (SPEC §8).
struct OutputOptions {
  std::string output;
  bool force = false;
  std::string compression = "deflate";

  void add_to(OptionSet& options);
  h5::Compression compression_kind() const;
  /// h5::check_output_target; then, with `warn` (rank 0), a warning when the
  /// name does not end in .h5, .hdf5 or .he5 (out.tsv: an HDF5 file all the same).
  void check_target(bool warn) const;
};

/// How pairs are aligned (SPEC §3) and how much memory a rank may use (SPEC §9).
struct EngineOptions {
  std::string align = "uniform";
  std::string embeddings;
  std::string memory;  // per rank, e.g. "2G"; empty: from the machine and the ranks on it
  std::string round_size;  // bytes a rank sends per exchange round; empty: automatic

  void add_to(OptionSet& options);
};

/// The reference set of TD-CONE_REL (SPEC §4); read with the corpus options,
/// or, as --reference-src-file/--reference-tgt-file, two sets of files whose
/// lines are whole sides (as --src-file/--tgt-file).
struct ReferenceOptions {
  std::string reference;
  std::vector<std::string> src_files, tgt_files;
  double rel_lambda = 0.1;

  void add_to(OptionSet& options);
  bool parallel() const { return !src_files.empty() || !tgt_files.empty(); }
  /// Throws UsageError when --reference and the two-file form are both
  /// given, or one of --reference-src-file and --reference-tgt-file alone.
  void check_sources() const;
};

struct ScoreOptions {
  CorpusOptions corpus;
  EngineOptions engine;
  ReferenceOptions reference;
  LabelOptions labels;
  bool by_label = false;  // /labels: scores per label combination and value
  std::size_t shards = 0;
  std::string shard_by = "hash";
  std::uint64_t seed = 1;
  OutputOptions output;
};

struct BalanceOptions {
  CorpusOptions corpus;
  EngineOptions engine;
  LabelOptions labels;
  std::string mode = "joint";     // joint | marginal | skewed (label::BalanceMode)
  double min_share = 0.05;
  std::uint64_t size = 0;         // skewed: total size; 0 = the joint mode's
  std::string rank_by = "tdcone"; // which lines of a combination go first: tdcone | cynical | random
  std::string ranking;            // a score result (tdcone) or select result (cynical) of this corpus
  std::uint64_t seed = 1;         // --rank-by random
  bool by_label = false;          // also /labels, in the same pass
  OutputOptions output;
};

struct SweepOptions {
  CorpusOptions corpus;
  EngineOptions engine;
  ReferenceOptions reference;
  std::vector<double> thresholds;
  std::uint64_t sample = 0;
  std::uint64_t seed = 1;
  OutputOptions output;
};

struct SelectOptions {
  std::vector<std::string> representative, available, unadapted, seed_corpus;
  std::string side = "src";  // AVAIL's (and, by default, the others' when they hold pairs)
  // REPR, UNAD, SEED: src, tgt, both, line (the whole line), or auto: line
  // when the input's first non-empty line has one column, else --side.
  std::string representative_side = "auto", unadapted_side = "auto", seed_side = "auto";
  CorpusOptions corpus;  // format and tokenization (its --input is not used)
  std::uint64_t mincount = 3;
  bool keep_boring = true;
  bool batch = true;
  std::uint32_t length_cap = 100;
  bool skip_seed_lines = true;     // AVAIL lines whose text is a SEED line are not selectable (flags 8)
  bool stop = false;
  std::string checkpoint;          // default: the output path + ".ckpt"
  bool resume = false;
  double checkpoint_every = 0;     // minutes; 0 = only on SIGTERM/SIGUSR1
  OutputOptions output;
};

struct ExportOptions {
  std::string hdf5;
  std::string group = "pairs";
  std::string to = "tsv";      // output format: tsv | jsonl
  std::string output = "-";    // a name ending in .zst is written zstd-compressed
  bool force = false;
  bool text = false;           // join the input text (src/tgt, or a selection's text)
  std::vector<std::string> inputs;  // replaces the input paths the run recorded
  std::string side;            // a selection's text: src | tgt | both (default: the run's --side)
  std::string sort_by;
  bool ascending = false, descending = false;
  std::uint64_t top = 0;       // 0 = all rows
  std::vector<std::string> where;
  bool selected = false;       // selection: rows up to stop_rank that are selected, in rank order
  bool lines_only = false;     // only each kept row's input line, verbatim
  bool jaded = false;          // the classic cynical-selection TSV for /selection
};

struct InfoOptions {
  std::string hdf5;
};

struct SynthOptionsCli {
  std::string profile = "twitter";  // synth::Profile by name
  std::uint64_t pairs = 100000;
  std::uint64_t first_pair = 0;
  std::uint64_t seed = 1;
  std::uint32_t vocabulary = 50000;
  double junk_fraction = 0.002;
  bool labels = false;
  std::string output;
  bool force = false;
};

void add_score_options(OptionSet& options, ScoreOptions& score);
void add_balance_options(OptionSet& options, BalanceOptions& balance);
void add_sweep_options(OptionSet& options, SweepOptions& sweep);
void add_select_options(OptionSet& options, SelectOptions& select);
void add_export_options(OptionSet& options, ExportOptions& export_options);
void add_info_options(OptionSet& options, InfoOptions& info);
void add_synth_options(OptionSet& options, SynthOptionsCli& synth);

/// Each returns the process exit status. `config_toml` is the effective configuration.
int run_score(const boost::mpi::communicator& comm, const ScoreOptions& options, const std::string& config_toml);
int run_balance(const boost::mpi::communicator& comm, const BalanceOptions& options, const std::string& config_toml);
int run_sweep(const boost::mpi::communicator& comm, const SweepOptions& options, const std::string& config_toml);
int run_select(const boost::mpi::communicator& comm, const SelectOptions& options, const std::string& config_toml);
/// From now on SIGTERM and SIGUSR1 ask a selection to checkpoint and exit 75
/// (at its next iteration boundary) instead of killing the process.
void catch_stop_signals();
int run_export(const boost::mpi::communicator& comm, const ExportOptions& options);
int run_info(const boost::mpi::communicator& comm, const InfoOptions& options);
int run_synth(const boost::mpi::communicator& comm, const SynthOptionsCli& options);

/// Parses the command line (and --config) and runs the chosen command.
int run_cli(const boost::mpi::communicator& comm, int argc, char** argv);

}  // namespace tdcone::cli
