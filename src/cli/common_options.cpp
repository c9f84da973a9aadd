// The options several commands share, with their --help text.
#include "tdcone/cli/common_options.hpp"

#include <algorithm>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/engine/score_engine.hpp"

namespace tdcone::cli {

namespace {

// A line is held whole in memory while it is read: past 1 GiB a typo, not a corpus.
constexpr std::uint64_t kMaxLineBytes = std::uint64_t{1} << 30;

}  // namespace

void CorpusModes::add_to(OptionSet& o, config::CorpusConfig& c, const std::string& input) {
  if (input == "required" || input == "columns") {
    o.add("input", c.inputs,
          "Corpus files or globs, in order (plain text, or zstd, gzip, xz or bzip2 compressed: detected from the "
          "content)" + std::string(input == "required" ? "; or give --src-file and --tgt-file" : ""));
  }
  if (input == "required" || input == "columns") {
    auto* src = o.add("src-file", c.src_files,
                      "Instead of --input, a parallel corpus in two sets of files: the input side, a whole line a pair "
                      "(files or globs, in order; any compression)");
    auto* tgt = o.add("tgt-file", c.tgt_files,
                      "With --src-file: the output side; line k of its i-th file pairs with line k of the i-th "
                      "--src-file (as many files, each with as many lines)");
    // Out of the help where a command needs columns, but parsed: its refusal says why.
    if (input == "columns") src->group(""), tgt->group("");
  }
  const bool pairs = input != "lines";  // selection reads lines: no score, id or direction
  o.add("format", format, "Corpus format", one_of({"tsv", "jsonl"}));
  o.add("src-col", c.src_col, "TSV: 1-based column of the input side", column_number(false));
  o.add("tgt-col", c.tgt_col, "TSV: 1-based column of the output side", column_number(false));
  if (pairs) o.add("score-col", c.score_col, "TSV: 1-based column of a numeric score (0 = none); a judgement '(n,m)' "
                    "(0 <= n <= m, as the Twitter URL corpus's '(4,6)') reads as n/m", column_number(true));
  if (pairs) o.add("id-col", c.id_col, "TSV: 1-based column of a pair id kept in the output (0 = none)", column_number(true));
  o.add("src-field", c.src_field, "JSONL: field of the input side");
  o.add("tgt-field", c.tgt_field, "JSONL: field of the output side");
  if (pairs) o.add("score-field", c.score_field, "JSONL: field of a numeric score (empty = none); a string '(n,m)' reads as n/m");
  if (pairs) o.add("id-field", c.id_field, "JSONL: field of a pair id (empty = none)");
  o.add("tokenizer", tokenizer, "whitespace: split on Unicode white space; punct: also split off every punctuation character",
        one_of({"whitespace", "punct"}));
  o.add_switch("lowercase", c.lowercase, "Unicode case folding of tokens");
  if (pairs) o.add_switch("reverse", c.reverse, "Swap the sides: score output -> input");
  o.add("on-bad-line", on_bad_line, "skip: flag bad lines and go on; fail: stop at the first one",
        one_of({"skip", "fail"}));
  o.add("max-line-bytes", c.max_line_bytes, "Lines longer than this are bad lines", whole_number(1, kMaxLineBytes));
  o.add("max-bad-fraction", c.max_bad_fraction,
        "Stop (exit 1) when more than this fraction of an input's lines are bad (0 = none may be, 1 = any number); "
        "an input whose lines are all bad always stops",
        real_number(0, 1));
}

void CorpusModes::resolve(config::CorpusConfig& c) const {
  c.format = from_name<io::Format>(format, {{"tsv", io::Format::tsv}, {"jsonl", io::Format::jsonl}});
  c.tokenizer = from_name<text::TokenizerKind>(tokenizer, {{"punct", text::TokenizerKind::punct}, {"whitespace", text::TokenizerKind::whitespace}});
  c.on_bad_line = from_name<config::OnBadLine>(on_bad_line, {{"skip", config::OnBadLine::skip}, {"fail", config::OnBadLine::fail}});
}

select::Side side_from_name(const std::string& name) {
  return from_name<select::Side>(name, {{"src", select::Side::src}, {"tgt", select::Side::tgt}, {"both", select::Side::both}});
}

void EngineModes::resolve(const boost::mpi::communicator& comm, config::EngineSettings& c) const {
  c.align = from_name<align::AlignMode>(align, {{"uniform", align::AlignMode::uniform}, {"static", align::AlignMode::embedding}});
  mpi::collective_step(comm, [&] {
    if (!memory.empty()) c.memory_bytes = parse_memory_size(memory, "--memory", SizeOf::budget);
    if (!round_size.empty()) c.round_bytes = parse_memory_size(round_size, "--round-size", SizeOf::buffer);
    if (!c.embeddings.empty() && c.align != align::AlignMode::embedding)
      throw UsageError(cat("--embeddings ", c.embeddings, " is read by --align static only, and the alignment is --align ",
                           align, ", which uses no vector: add --align static (align = \"static\" in a --config file), "
                           "or leave out --embeddings"));
  });
}

void SampleModes::add_to(OptionSet& o, config::SampleConfig& c, const char* subsets) {
  o.add("sample", sample,
        cat("Score R samples (--replicates) of N pairs of each ", subsets, ", by a hash of pair_id and --seed (the same "
            "for any rank count; a smaller subset is sampled whole). auto: half the smallest subset compared. Gives "
            "each subset's mean, 95% interval and p_best (/intervals, /replicates). 0: none"),
        count_or_auto());
  o.add("replicates", c.replicates,
        "R, samples drawn of each subset with --sample (replicate 0 is the sample --sample alone draws)",
        whole_number(1, 100000));
  o.add("at-sizes", at_sizes,
        "Also the corpus and every subset at each of these sample sizes, --replicates samples each (/curves: mean and "
        "95% interval of TD-CONE and TD-CONE_REL against size): comma-separated sizes, or auto (powers of two from 128 "
        "up to the corpus). Two corpora compare at one size this way");
}

void SampleModes::resolve(const boost::mpi::communicator& comm, config::SampleConfig& c) const {
  mpi::collective_step(comm, [&] {
    c.automatic = sample == "auto";
    c.sample = c.automatic ? 0 : std::stoull(sample);
    c.at_sizes_auto = at_sizes == "auto";
    if (!at_sizes.empty() && !c.at_sizes_auto) {
      std::string text = at_sizes;
      for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        std::string size = text.substr(start, end - start);
        if (!whole_number(1, kAnyCount).accept(size))
          throw UsageError(cat("--at-sizes ", at_sizes, ": '", text.substr(start, end - start),
                               "' is not a size; give whole numbers from 1, comma-separated (--at-sizes 1000,10000), "
                               "or auto"));
        c.at_sizes.push_back(std::stoull(size));
        start = end + 1;
      }
      std::sort(c.at_sizes.begin(), c.at_sizes.end());
      c.at_sizes.erase(std::unique(c.at_sizes.begin(), c.at_sizes.end()), c.at_sizes.end());
    }
    if (c.replicates > 1 && !c.given() && !c.curve_asked())
      throw UsageError(cat("--replicates ", c.replicates, " needs --sample N, --sample auto or --at-sizes: the replicates "
                           "are samples"));
  });
}

void OutputModes::resolve(config::OutputConfig& c) const {
  c.compression = from_name<hdf5::Compression>(compression, {{"deflate", hdf5::Compression::deflate}, {"zstd", hdf5::Compression::zstd},
                                          {"none", hdf5::Compression::none}});
}

void OutputModes::add_to(OptionSet& o, config::OutputConfig& c) {
  o.add("output", c.output, "HDF5 file to write, named .h5 (another name is warned about; tdcone export writes TSV or "
        "JSON lines of it)")->required();
  o.add_action_flag("force", c.force, "Overwrite an existing output file (never one of the inputs)");
  o.add("compression", compression, "Dataset compression: deflate (integer columns shuffled first; readable everywhere), zstd (filter 32015, needs HDF5_PLUGIN_PATH for other readers) or none",
        one_of({"deflate", "zstd", "none"}));
}

void EngineModes::add_to(OptionSet& o, config::EngineSettings& c) {
  o.add("align", align, "uniform: paper Algorithm 2; static: Algorithm 1 with --embeddings", one_of({"uniform", "static"}));
  o.add("embeddings", c.embeddings, "Static word vectors (GloVe/word2vec text, plain or compressed; not word2vec binary) "
        "for --align static, which it needs. The run reports the share of word types and of alignment mass that had a "
        "vector (summary, /corpus), warns under 50 % and stops at none");
  o.add("memory", memory,
        "Memory per rank (e.g. 1500M, 4G, 4GiB: K, M, G, T are powers of 1024; a bare number is bytes): bounds the "
        "exchange buffers; a run whose share of the alignment matrix cannot fit stops early with the --memory (its "
        "measured need plus 25%) or the ranks that will fit (default: 80% of the smallest of the node's memory and "
        "its cgroup limit, memory.max, divided by the ranks on the node, and of what ulimit -v leaves each rank)",
        memory_size(SizeOf::budget));
  o.add("round-size", round_size,
        cat("Advanced: bytes of row messages a rank sends per exchange round (e.g. 64k, 32M; default: about an eighth "
            "of its share, at most ", engine::kMaxAutomaticRoundBytes >> 20, " MiB and --memory/16). Results do not "
            "depend on it"),
        memory_size(SizeOf::buffer));
}

void add_reference_options(OptionSet& o, config::ReferenceConfig& c) {
  o.add("reference", c.reference, "Reference (validation) pairs, same format as the corpus: adds KL_pq, KL_pu, TD-CONE_REL");
  o.add("reference-src-file", c.src_files,
        "Instead of --reference, reference pairs in two sets of files, as --src-file: the input side, a whole line "
        "a pair (files or globs, in order; any compression)");
  o.add("reference-tgt-file", c.tgt_files,
        "With --reference-src-file: the output side; line k of its i-th file pairs with line k of the i-th "
        "--reference-src-file");
  o.add("rel-lambda", c.rel_lambda, "Smoothing λ of Q in TD-CONE_REL", real_number(0, 1));
}

void add_dedup_option(OptionSet& o, std::string& mode) {
  o.add("dedup", mode,
        "Find exact duplicates by a key of both sides: exact (their bytes), tokens (their tokens, as scored) or letters "
        "(their letters only, case-folded). Later copies are flagged 32 (still scored) with /pairs dup_of, the first "
        "copy's pair_id; src_group and src_group_size group the pairs by input side (the same key of it); with "
        "--reference, pairs whose key is a reference pair's are flagged 64. none: no duplicate columns",
        one_of({"none", "exact", "tokens", "letters"}));
}

void add_where_options(OptionSet& o, exporting::WhereFilter& filter, const std::string& lines,
                       const std::string& others) {
  o.add("where", filter.where, cat(lines, " whose /pairs row in --where-result passes COND, in export --where's "
        "grammar, e.g. 'flags.duplicate==0', 'markers==0', 'bleu<0.5'; repeat for several, all of which must hold. ",
        others))
      ->allow_extra_args(false);  // one condition an occurrence: `--where X RESULT.h5` keeps the file
  o.add("where-result", filter.where_result, "With --where: a tdcone score result of the same corpus files (checked "
        "by their recorded line counts and fingerprints), e.g. of score --dedup tokens");
}

text::DedupMode dedup_mode(const std::string& mode) {
  return from_name<text::DedupMode>(mode, {{"none", text::DedupMode::none}, {"exact", text::DedupMode::exact},
                                           {"tokens", text::DedupMode::tokens}, {"letters", text::DedupMode::letters}});
}

void add_label_options(OptionSet& o, config::LabelConfig& c) {
  o.add("label-cols", c.cols, "TSV: 1-based columns of labels, e.g. 5,6 (a style bucket, a classifier's class, a source). "
        "A line whose label is missing, empty or not a number under --label-buckets is flagged 16: it is scored, "
        "but in no label combination");
  o.add("label-fields", c.fields, "JSONL: fields of labels, e.g. formality,arousal (strings, numbers or booleans)");
  o.add("label-names", c.names, "Names of the labels, in order (default: the JSONL fields, or col5, col6, ...)");
  o.add("label-buckets", c.buckets,
        "NAME=CUT,CUT,...: cut a numeric label into buckets (value < first cut: the first bucket; [cut, next cut) the "
        "next). 1-4 cuts name them low/high, low/mid/high, very low/low/high/very high, very low/low/mid/high/very "
        "high; more cuts name them by interval. Repeat for several labels; NAME may be a TSV column number. A value '(n,m)' "
        "reads as n/m: judgement=0.5,0.6 cuts the Twitter URL '(n,6)' into low (n <= 2), mid (n = 3), high (n >= 4)");
}

}  // namespace tdcone::cli
