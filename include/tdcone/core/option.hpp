#pragma once
// The command-line options that messages name, by identity. How an option is
// spelled (--memory) is the command line's business: cli installs the words
// once at start (cli/option_names.hpp), and every module below it words its
// messages with option_name, so renaming an option touches cli only. An
// example message in a comment writes an option as <memory>: its name.
#include <array>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace tdcone {

/// An option named in a message (any command's). Listed alphabetically; the
/// table cli installs follows this order (checked where it is compiled).
enum class Option {
  align,
  ascending,
  available,
  by_label,
  checkpoint,
  dedup,
  descending,
  embeddings,
  force,
  format,
  group,
  id_col,
  id_field,
  input,
  jaded,
  label_buckets,
  label_cols,
  label_fields,
  label_names,
  length_buckets,
  lines_only,
  max_bad_fraction,
  max_line_bytes,
  memory,
  min_share,
  mode,
  no_lowercase,  // the negation of the --lowercase switch
  on_bad_line,
  output,
  quiet,
  rank_by,
  ranking,
  reference,
  reference_src_file,
  reference_tgt_file,
  representative,
  resume,
  round_size,
  score_col,
  score_field,
  seed_corpus,
  selected,
  shards,
  side,
  size,
  sort_by,
  src_col,
  src_field,
  src_file,
  stall_timeout,
  sweep_by,
  text,
  tgt_col,
  tgt_field,
  tgt_file,
  thresholds,
  to,
  tokenizer,
  unadapted,
  where,
  where_result,
};
inline constexpr std::size_t kOptionCount = static_cast<std::size_t>(Option::where_result) + 1;

/// The words of every option, indexed by Option (--memory for Option::memory).
using OptionNames = std::array<std::string_view, kOptionCount>;

/// How the command line spells `option`, e.g. --memory. Ends the process (a
/// message to standard error, then abort) when no names were installed: a
/// program that words messages without cli's names is a bug, and no message
/// should name an option wrongly.
const std::string& option_name(Option option);
/// Writes option_name(option): cat(Option::memory, " ", text) is <memory> 2G.
std::ostream& operator<<(std::ostream& out, Option option);
/// Installs the words of every option (cli::install_option_names, at start;
/// the tests' mains call that too). Throws std::logic_error for an empty name.
void set_option_names(const OptionNames& names);

}  // namespace tdcone
