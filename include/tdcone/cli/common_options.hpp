#pragma once
// The options several commands share (corpus, labels, reference, engine,
// output), declared with their --help text and bound to the jobs' config
// structs. An option whose value is a name is kept here as given and turned
// into the config's enum by resolve (CLI11 has already checked the name).
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

#include "tdcone/cli/options.hpp"
#include "tdcone/config/job_config.hpp"
#include "tdcone/exporting/where_filter.hpp"

namespace tdcone::cli {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();
inline constexpr std::uint64_t kAnyCount = std::numeric_limits<std::uint64_t>::max();

/// --format, --tokenizer and --on-bad-line, by name.
struct CorpusModes {
  std::string format = "tsv", tokenizer = "punct", on_bad_line = "skip";

  /// Declares the corpus options, bound to `config` and to these names.
  /// `input`: "required" (--input, or --src-file with --tgt-file, checked by
  /// CorpusConfig::check_sources, not by the parser), "columns" (a corpus with
  /// a score or label column: --src-file/--tgt-file are parsed, to be refused,
  /// but not in the help) or "lines" (selection: no --input, and only the
  /// options that say how a line's text is read: no score, id or --reverse).
  void add_to(OptionSet& options, config::CorpusConfig& config, const std::string& input);
  void resolve(config::CorpusConfig& config) const;
};

/// --align, by name; --memory and --round-size as given (empty: automatic),
/// turned into bytes by resolve (CLI11 has already checked them).
struct EngineModes {
  std::string align = "uniform", memory, round_size;

  void add_to(OptionSet& options, config::EngineSettings& config);
  /// Also refuses --embeddings without --align static, which would read no
  /// vector (every rank parsed the same arguments: all refuse). Collective.
  void resolve(const boost::mpi::communicator& comm, config::EngineSettings& config) const;
};

/// --sample N|auto and --replicates R: equal-size samples of every subset
/// (score) or threshold subset (sweep), drawn R times.
struct SampleModes {
  std::string sample = "0";
  std::string at_sizes;  // --at-sizes: "1000,10000" or "auto"; empty: none

  void add_to(OptionSet& options, config::SampleConfig& config, const char* subsets);
  /// Refuses --replicates above 1 without a sample (or --at-sizes), and
  /// sizes that are not whole numbers from 1.
  /// Every rank parsed the same arguments: all refuse together. Collective.
  void resolve(const boost::mpi::communicator& comm, config::SampleConfig& config) const;
};

/// --compression, by name.
struct OutputModes {
  std::string compression = "deflate";

  void add_to(OptionSet& options, config::OutputConfig& config);
  void resolve(config::OutputConfig& config) const;
};

void add_label_options(OptionSet& options, config::LabelConfig& labels);
/// --dedup (score, sweep), kept as its name in `mode`; dedup_mode() gives the enum.
void add_dedup_option(OptionSet& options, std::string& mode);
text::DedupMode dedup_mode(const std::string& mode);
void add_reference_options(OptionSet& options, config::ReferenceConfig& reference);
/// --where and --where-result (balance, select): `lines` says which lines
/// pass, `others` what becomes of the rest.
void add_where_options(OptionSet& options, exporting::WhereFilter& filter, const std::string& lines,
                       const std::string& others);

/// --side (select, export): "src", "tgt" or "both".
select::Side side_from_name(const std::string& name);

/// The enum that `names` pairs with `name` (a name one_of has already
/// accepted); the first one for any other name.
template <class Enum>
Enum from_name(const std::string& name, std::initializer_list<std::pair<const char*, Enum>> names) {
  for (const auto& [text, value] : names)
    if (name == text) return value;
  return names.begin()->second;
}

}  // namespace tdcone::cli
