#pragma once
// What the jobs are told about their corpus, reference, labels, engine and
// output: plain values that the command line (cli) fills in. A mode is an
// enum here; its name is the command line's business.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tdcone/align/pair_alignment.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/select/corpora.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::config {

/// --on-bad-line: flag bad lines and go on, or stop at the first one.
enum class OnBadLine { skip, fail };

/// What a command does with bad lines (docs/spec.md §2, §9).
struct BadLinePolicy {
  OnBadLine on_bad_line = OnBadLine::skip;  // --on-bad-line
  double max_bad_fraction = 0.5;     // --max-bad-fraction: more bad lines than this fraction of the lines is an error
  std::string hint;                  // the options that say how a line is read, for the error messages
  // The options of the same input as two one-sided sets of files ("<src-file>/<tgt-file>"), suggested
  // when (nearly) every line is bad for want of a second column; empty: none.
  std::string two_file_options;
};

/// Which corpus, how to read and tokenize it (docs/spec.md §2).
struct CorpusConfig {
  std::vector<std::string> inputs;
  // A parallel two-file corpus instead of --input: line k of src file i and
  // line k of tgt file i make a pair (io/parallel_files.hpp).
  std::vector<std::string> src_files, tgt_files;
  io::Format format = io::Format::tsv;  // tsv or jsonl
  int src_col = 1, tgt_col = 2, score_col = 0, id_col = 0;
  std::string src_field = "src", tgt_field = "tgt", score_field, id_field;
  text::TokenizerKind tokenizer = text::TokenizerKind::punct;
  bool lowercase = true;
  bool reverse = false;
  OnBadLine on_bad_line = OnBadLine::skip;
  std::uint64_t max_line_bytes = 1 << 20;
  double max_bad_fraction = 0.5;
  text::DedupMode dedup = text::DedupMode::none;  // --dedup: duplicates and source groups (engine/duplicates.hpp)

  /// The corpus is --src-file/--tgt-file, not --input.
  bool parallel() const { return !src_files.empty() || !tgt_files.empty(); }
  /// Throws UsageError unless exactly one of --input and --src-file with
  /// --tgt-file names the corpus, and, for the two-file form, no option for
  /// columns or fields is given (its lines are whole sides: no score, no id).
  void check_sources() const;
  text::ReadOptions read_options() const;
  /// --on-bad-line, --max-bad-fraction, and the options to check when lines are bad.
  BadLinePolicy bad_line_policy() const;
  /// As selection reads a line of `side`: a one-sided line is its one column
  /// (or field) read as both sides, so a file of one sentence per line works as is.
  text::ReadOptions line_read_options(select::Side side) const;
};

/// "tsv" or "jsonl", as <format> names it.
std::string format_name(io::Format format);
/// "whitespace" or "punct", as <tokenizer> names it.
std::string tokenizer_name(text::TokenizerKind kind);

/// Label columns or fields of a corpus (label-aware curation): how each
/// line's labels are read, named and bucketed.
struct LabelConfig {
  std::string cols;    // TSV: "5,6"
  std::string fields;  // JSONL: "formality,arousal"
  std::string names;   // default: the fields, or "col5", "col6"
  std::vector<std::string> buckets;  // "NAME=CUT,CUT,..."

  bool given() const { return !cols.empty() || !fields.empty(); }
  /// Puts the labels into `read` (its fields and label spec). Throws UsageError.
  void apply(text::ReadOptions& read) const;
};

/// Where and how the HDF5 result is written (docs/spec.md §8).
struct OutputConfig {
  std::string output;
  bool force = false;
  hdf5::Compression compression = hdf5::Compression::deflate;

  /// hdf5::check_output_target; then, with `warn` (rank 0), a warning when the
  /// name does not end in .h5, .hdf5 or .he5 (out.tsv: an HDF5 file all the same).
  void check_target(bool warn) const;
};

/// Equal-size samples of every subset, drawn `replicates` times (docs/spec.md
/// §5 replicates): replicate r of subset S is the min(sample, |S|) pairs of S
/// with the smallest entropy::sample_key(pair_id, replicate_seed(seed, r)).
struct SampleConfig {
  std::uint64_t sample = 0;    // pairs per sample; 0 = none (unless `automatic`)
  bool automatic = false;      // --sample auto: half the smallest subset compared
  std::uint32_t replicates = 1;
  std::uint64_t seed = 1;
  // --at-sizes: the subsets at each of these sample sizes, `replicates` samples each.
  std::vector<std::uint64_t> at_sizes;
  bool at_sizes_auto = false;  // powers of two from 128 up to the corpus

  bool given() const { return sample > 0 || automatic; }
  bool curve_asked() const { return !at_sizes.empty() || at_sizes_auto; }
};

/// How pairs are aligned (docs/spec.md §3) and how much memory a rank may use (docs/spec.md §9).
struct EngineSettings {
  align::AlignMode align = align::AlignMode::uniform;
  std::string embeddings;
  std::optional<std::uint64_t> memory_bytes;  // per rank; none: from the machine and the ranks on it
  std::uint64_t round_bytes = 0;              // bytes a rank sends per exchange round; 0: automatic
};

/// The reference set of TD-CONE_REL (docs/spec.md §4); read with the corpus options,
/// or, as --reference-src-file/--reference-tgt-file, two sets of files whose
/// lines are whole sides (as --src-file/--tgt-file).
struct ReferenceConfig {
  std::string reference;
  std::vector<std::string> src_files, tgt_files;
  double rel_lambda = 0.1;

  bool parallel() const { return !src_files.empty() || !tgt_files.empty(); }
  /// Throws UsageError when --reference and the two-file form are both
  /// given, or one of --reference-src-file and --reference-tgt-file alone.
  void check_sources() const;
};

}  // namespace tdcone::config
