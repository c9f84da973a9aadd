#include "tdcone/cli/commands.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "tdcone/core/error.hpp"

namespace tdcone::cli {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr std::uint64_t kAnyCount = std::numeric_limits<std::uint64_t>::max();
// A line is held whole in memory while it is read: past 1 GiB a typo, not a corpus.
constexpr std::uint64_t kMaxLineBytes = std::uint64_t{1} << 30;
// synth: a trillion lines is some 100 TB of text, past any real corpus; with
// --first-pair at most 2^62, the last line number cannot wrap around.
constexpr std::uint64_t kMaxSynthPairs = 1'000'000'000'000;
constexpr std::uint64_t kMaxFirstPair = std::uint64_t{1} << 62;

}  // namespace

void CorpusOptions::add_to(OptionSet& o, const std::string& input) {
  if (input == "required" || input == "columns") {
    o.add("input", inputs,
          "Corpus files or globs, in order (plain text, or zstd, gzip, xz or bzip2 compressed: detected from the "
          "content)" + std::string(input == "required" ? "; or give --src-file and --tgt-file" : ""));
  }
  if (input == "required" || input == "columns") {
    auto* src = o.add("src-file", src_files,
                      "Instead of --input, a parallel corpus in two sets of files: the input side, a whole line a pair "
                      "(files or globs, in order; any compression)");
    auto* tgt = o.add("tgt-file", tgt_files,
                      "With --src-file: the output side; line k of its i-th file pairs with line k of the i-th "
                      "--src-file (as many files, each with as many lines)");
    // Out of the help where a command needs columns, but parsed: its refusal says why.
    if (input == "columns") src->group(""), tgt->group("");
  }
  const bool pairs = input != "lines";  // selection reads lines: no score, id or direction
  o.add("format", format, "Corpus format", one_of({"tsv", "jsonl"}));
  o.add("src-col", src_col, "TSV: 1-based column of the input side", column_number(false));
  o.add("tgt-col", tgt_col, "TSV: 1-based column of the output side", column_number(false));
  if (pairs) o.add("score-col", score_col, "TSV: 1-based column of a numeric score (0 = none); a judgement '(n,m)' "
                    "(0 <= n <= m, as the Twitter URL corpus's '(4,6)') reads as n/m", column_number(true));
  if (pairs) o.add("id-col", id_col, "TSV: 1-based column of a pair id kept in the output (0 = none)", column_number(true));
  o.add("src-field", src_field, "JSONL: field of the input side");
  o.add("tgt-field", tgt_field, "JSONL: field of the output side");
  if (pairs) o.add("score-field", score_field, "JSONL: field of a numeric score (empty = none); a string '(n,m)' reads as n/m");
  if (pairs) o.add("id-field", id_field, "JSONL: field of a pair id (empty = none)");
  o.add("tokenizer", tokenizer, "whitespace: split on Unicode white space; punct: also split off every punctuation character",
        one_of({"whitespace", "punct"}));
  o.add_switch("lowercase", lowercase, "Unicode case folding of tokens");
  if (pairs) o.add_switch("reverse", reverse, "Swap the sides: score output -> input");
  o.add("on-bad-line", on_bad_line, "skip: flag bad lines and go on; fail: stop at the first one",
        one_of({"skip", "fail"}));
  o.add("max-line-bytes", max_line_bytes, "Lines longer than this are bad lines", whole_number(1, kMaxLineBytes));
  o.add("max-bad-fraction", max_bad_fraction,
        "Stop (exit 1) when more than this fraction of an input's lines are bad (0 = none may be, 1 = any number); "
        "an input whose lines are all bad always stops",
        real_number(0, 1));
}

BadLinePolicy CorpusOptions::bad_line_policy() const {
  BadLinePolicy policy;
  policy.on_bad_line = on_bad_line;
  policy.max_bad_fraction = max_bad_fraction;
  policy.hint = format == "jsonl"
                    ? "--format (jsonl here: one JSON object a line) and --src-field/--tgt-field/--score-field/--id-field"
                    : "--format (tsv here: tab-separated columns) and --src-col/--tgt-col/--score-col/--id-col";
  return policy;
}

void CorpusOptions::check_sources() const {
  if (!parallel()) {
    if (inputs.empty()) throw UsageError("no corpus: give --input FILE..., or --src-file FILE... with --tgt-file FILE...");
    return;
  }
  if (!inputs.empty())
    throw UsageError("--input and --src-file/--tgt-file both name a corpus: give one or the other");
  if (src_files.empty() || tgt_files.empty())
    throw UsageError(src_files.empty() ? "--tgt-file needs --src-file (the input side of its lines)"
                                       : "--src-file needs --tgt-file (the output side of its lines)");
  const auto refuse = [](const std::string& option) {
    throw UsageError(cat(option, " does not apply to --src-file/--tgt-file: their lines are whole sides (no columns, "
                         "fields, score or id); paste them into one TSV for that"));
  };
  if (format != "tsv") refuse("--format " + format);
  if (src_col != 1) refuse("--src-col");
  if (tgt_col != 2) refuse("--tgt-col");
  if (score_col != 0) refuse("--score-col");
  if (id_col != 0) refuse("--id-col");
  if (!score_field.empty()) refuse("--score-field");
  if (!id_field.empty()) refuse("--id-field");
}

void ReferenceOptions::check_sources() const {
  if (!parallel()) return;
  if (!reference.empty())
    throw UsageError("--reference and --reference-src-file/--reference-tgt-file both name a reference: give one or the other");
  if (src_files.empty() || tgt_files.empty())
    throw UsageError(src_files.empty() ? "--reference-tgt-file needs --reference-src-file (the input side of its lines)"
                                       : "--reference-src-file needs --reference-tgt-file (the output side of its lines)");
}

text::ReadOptions CorpusOptions::read_options() const {
  text::ReadOptions r;
  r.fields.format = format == "jsonl" ? io::Format::jsonl : io::Format::tsv;
  r.fields.src_col = src_col;
  r.fields.tgt_col = tgt_col;
  r.fields.score_col = score_col;
  r.fields.id_col = id_col;
  r.fields.src_field = src_field;
  r.fields.tgt_field = tgt_field;
  r.fields.score_field = score_field;
  r.fields.id_field = id_field;
  r.tokenizer.kind = tokenizer == "whitespace" ? text::TokenizerKind::whitespace : text::TokenizerKind::punct;
  r.tokenizer.lowercase = lowercase;
  r.reverse = reverse;
  r.max_line_bytes = max_line_bytes;
  return r;
}

void OutputOptions::add_to(OptionSet& o) {
  o.add("output", output, "HDF5 file to write, named .h5 (another name is warned about; tdcone export writes TSV or "
        "JSON lines of it)")->required();
  o.add_action_flag("force", force, "Overwrite an existing output file (never one of the inputs)");
  o.add("compression", compression, "Dataset compression: deflate (with shuffle, readable everywhere), zstd (filter 32015, needs HDF5_PLUGIN_PATH for other readers) or none",
        one_of({"deflate", "zstd", "none"}));
}

text::ReadOptions CorpusOptions::line_read_options(const std::string& side) const {
  text::ReadOptions r = read_options();
  if (side == "src") {
    r.fields.tgt_col = r.fields.src_col;
    r.fields.tgt_field = r.fields.src_field;
  } else if (side == "tgt") {
    r.fields.src_col = r.fields.tgt_col;
    r.fields.src_field = r.fields.tgt_field;
  }
  return r;
}

void OutputOptions::check_target(bool warn) const {
  h5::check_output_target(output, force);
  std::string extension = std::filesystem::path(output).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (warn && extension != ".h5" && extension != ".hdf5" && extension != ".he5")
    std::fprintf(stderr, "tdcone: warning: --output %s: tdcone writes an HDF5 file whatever its name; name it .h5, "
                 "and `tdcone export RESULT.h5 --output FILE.tsv` writes a table of it as TSV\n", output.c_str());
}

h5::Compression OutputOptions::compression_kind() const {
  if (compression == "zstd") return h5::Compression::zstd;
  if (compression == "none") return h5::Compression::none;
  return h5::Compression::deflate;
}

void EngineOptions::add_to(OptionSet& o) {
  o.add("align", align, "uniform: paper Algorithm 2; static: Algorithm 1 with --embeddings", one_of({"uniform", "static"}));
  o.add("embeddings", embeddings, "Static word vectors (GloVe/word2vec text, plain or compressed) for --align static");
  o.add("memory", memory,
        "Memory per rank (e.g. 1500M, 4G, 4GiB: K, M, G, T are powers of 1024; a bare number is bytes): bounds the "
        "exchange buffers; a run whose share of the alignment matrix cannot fit stops early with the --memory (its "
        "measured need plus 25%) or the ranks that will fit (default: 80% of the smallest of the node's memory and "
        "its cgroup limit, memory.max, divided by the ranks on the node, and of what ulimit -v leaves each rank)",
        memory_size(pipeline::SizeOf::budget));
  o.add("round-size", round_size,
        "Advanced: bytes of row messages a rank sends per exchange round (e.g. 64k, 32M; default: about an eighth of "
        "its share, at most 128 MiB and --memory/16). Results do not depend on it",
        memory_size(pipeline::SizeOf::buffer));
}

void ReferenceOptions::add_to(OptionSet& o) {
  o.add("reference", reference, "Reference (validation) pairs, same format as the corpus: adds KL_pq, KL_pu, TD-CONE_REL");
  o.add("reference-src-file", src_files,
        "Instead of --reference, reference pairs in two sets of files, as --src-file: the input side, a whole line "
        "a pair (files or globs, in order; any compression)");
  o.add("reference-tgt-file", tgt_files,
        "With --reference-src-file: the output side; line k of its i-th file pairs with line k of the i-th "
        "--reference-src-file");
  o.add("rel-lambda", rel_lambda, "Smoothing λ of Q in TD-CONE_REL", real_number(0, 1));
}

void add_score_options(OptionSet& o, ScoreOptions& score) {
  score.corpus.add_to(o, "required");
  score.engine.add_to(o);
  score.reference.add_to(o);
  o.add("shards", score.shards, "Also score K shards of the corpus (/shards; 0 = none; at most one a usable line)",
        whole_number(0, kAnyCount));
  o.add("shard-by", score.shard_by, "hash: of pair_id with --seed; file: input file index mod K (/shards then has a column file: the "
        "shard's files, the src files of --src-file/--tgt-file); block: contiguous blocks of lines",
        one_of({"hash", "file", "block"}));
  o.add("seed", score.seed, "Seed of --shard-by hash", whole_number(0, kAnyCount));
  score.labels.add_to(o);
  o.add_switch("by-label", score.by_label,
               "Also score every label combination present and, with several labels, every value of each (/labels: "
               "label 'formal|aroused' or 'formal|*', n_pairs, tdcone, cond_entropy; KL and TD-CONE_REL with "
               "--reference); needs --label-cols or --label-fields");
  score.output.add_to(o);
}

void add_balance_options(OptionSet& o, BalanceOptions& b) {
  b.corpus.add_to(o, "columns");  // labels are columns: no two-file corpus
  b.labels.add_to(o);
  o.add("mode", b.mode,
        "joint: every label combination down to the size of the rarest one holding at least --min-share of the "
        "labelled lines (rarer ones keep all they have: under-represented); marginal: each label's values equally "
        "represented, as far as the lines allow (iterative proportional fitting, then the best lines); skewed: the "
        "natural distribution at --size lines (default: the joint subset's size, for a like-for-like comparison)",
        one_of({"joint", "marginal", "skewed"}));
  o.add("min-share", b.min_share, "--mode joint (and skewed's default size): a combination below this share of the "
        "labelled lines keeps all its lines and does not set the common size", real_number(0, 1));
  o.add("size", b.size, "--mode skewed: lines in the subset (0 = the --mode joint subset's size)", whole_number(0, kAnyCount));
  o.add("rank-by", b.rank_by,
        "Which lines of a combination are kept first. tdcone: lowest pair TD-CONE (scored in this run, with /corpus "
        "and /pairs, unless --ranking gives a score result); cynical: best rank of a select result "
        "(--ranking); random: a seeded random order (--seed). Ties by pair_id",
        one_of({"tdcone", "cynical", "random"}));
  o.add("ranking", b.ranking, "A tdcone score (for --rank-by tdcone) or select (for --rank-by cynical) result of the "
        "same corpus files (checked by their recorded line counts and fingerprints), of this or an older major "
        "tdcone_version, with every /pairs (or /selection) column");
  o.add("seed", b.seed, "Seed of --rank-by random (the subset does not depend on the rank count)", whole_number(0, kAnyCount));
  o.add_switch("by-label", b.by_label,
               "Also score every label combination and value in the same pass (/labels, as score --by-label; the "
               "matrix then keeps a cell per combination: more time and memory)");
  b.engine.add_to(o);
  b.output.add_to(o);
}

void add_sweep_options(OptionSet& o, SweepOptions& sweep) {
  sweep.corpus.add_to(o, "columns");  // a sweep needs a score column: no two-file corpus
  sweep.engine.add_to(o);
  sweep.reference.add_to(o);
  o.add("thresholds", sweep.thresholds, "Score thresholds t (1-64): subset S_t = pairs with score >= t",
        real_number(-kInfinity, kInfinity))
      ->required()->delimiter(',');
  o.add("sample", sweep.sample, "Score a uniform sample of N pairs of each S_t (0 = all of S_t)", whole_number(0, kAnyCount));
  o.add("seed", sweep.seed, "Seed of --sample (the sample does not depend on the rank count)", whole_number(0, kAnyCount));
  sweep.output.add_to(o);
}

void add_export_options(OptionSet& o, ExportOptions& e) {
  o.command()->add_option("hdf5", e.hdf5, "A tdcone HDF5 result")->required()->check(CLI::ExistingFile);
  o.add("group", e.group, "Table to export", one_of({"pairs", "shards", "sweep", "selection", "labels", "balance", "combinations"}));
  o.add("to", e.to, "Output format: tsv (a header line, then one line per row) or jsonl (one JSON object per row; "
        "keys = column names; NaN and infinities are null)", one_of({"tsv", "jsonl"}));
  o.add("output", e.output, "File to write ('-' = standard output; a name ending in .zst is written zstd-compressed)");
  o.add_action_flag("force", e.force, "Overwrite an existing output file (never one of the inputs)");
  o.add_action_flag("text", e.text,
                    "Join each row with its input text: src and tgt (pairs, balance; after the run's --reverse), or text "
                    "(selection). Read from the files the run recorded, with its reader settings; refused when a "
                    "file's size or content differs from the recorded one. A bad line's src/tgt are empty (JSON "
                    "null) and its line is in raw");
  o.add("input", e.inputs, "With --text, --lines-only or --jaded: read these files (paths or globs, in the run's "
        "order) instead of the recorded ones, e.g. after they moved");
  o.add("side", e.side, "With --group selection: which text of a pair is a line's text (default: the run's --side)",
        one_of({"src", "tgt", "both"}));
  o.add("sort-by", e.sort_by, "Sort the rows by this column (NaN last either way; ties keep the table's order)");
  o.add_action_flag("ascending", e.ascending, "With --sort-by: smallest first (the default)");
  o.add_action_flag("descending", e.descending, "With --sort-by: largest first");
  o.add("top", e.top, "Only the first N rows, after --where, --selected and --sort-by (0 = all)",
        whole_number(0, std::numeric_limits<std::uint64_t>::max()));
  o.add("where", e.where, "Keep the rows where COLUMN OP NUMBER holds, e.g. 'tdcone<0.5', 'flags==0' (OP: < <= > >= "
        "== !=; NaN never passes), or, on a text column, COLUMN==TEXT or COLUMN!=TEXT with the text in single or "
        "double quotes, e.g. \"combination=='(6,6)'\"; repeat for several conditions, all of which must hold")
      ->allow_extra_args(false);  // one condition an occurrence: `--where X RESULT.h5` keeps the file
  o.add_action_flag("selected", e.selected,
                    "With --group selection: only the selected lines, those ranked up to stop_rank (not junk, not "
                    "cut by --stop), in rank order");
  o.add_action_flag("lines-only", e.lines_only,
                    "With --group pairs, balance or selection: write only each kept row's input line, verbatim (bytes as in "
                    "the file), one per line, in input order unless --sort-by is given; e.g. the next seed corpus");
  o.add_action_flag("jaded", e.jaded, "With --group selection: the classic cynical-selection columns (line id, rank, "
                    "score, penalty, gain, cross-entropy, root word, WGE, text) as TSV; the text as with --text");
}

void add_info_options(OptionSet& o, InfoOptions& i) {
  o.command()->add_option("hdf5", i.hdf5, "A tdcone HDF5 result")->required()->check(CLI::ExistingFile);
}

void add_select_options(OptionSet& o, SelectOptions& s) {
  o.add("representative", s.representative, "REPR: text the selection should model (files or globs)")->required();
  o.add("available", s.available, "AVAIL: the corpus to rank (files or globs); sharded over ranks")->required();
  o.add("unadapted", s.unadapted, "UNAD: the general-domain corpus of the word ratios (default: AVAIL)");
  o.add("seed-corpus", s.seed_corpus, "SEED: text already selected; the model starts from it (default: empty)");
  o.add("side", s.side,
        "Which text of an AVAIL pair is the line: src, tgt, or both (src tokens then tgt tokens); also of REPR, UNAD "
        "and SEED when they hold pairs (see --representative-side)",
        one_of({"src", "tgt", "both"}));
  const std::string per_input =
      ": src, tgt, both, line (the whole line, for a file of one sentence per line) or auto: line when its first "
      "non-empty line has one column (TSV: no tab; JSONL: not a JSON object), else --side";
  o.add("representative-side", s.representative_side, "Which text of a REPR line is the line" + per_input,
        one_of({"auto", "src", "tgt", "both", "line"}));
  o.add("unadapted-side", s.unadapted_side, "The same for UNAD", one_of({"auto", "src", "tgt", "both", "line"}));
  o.add("seed-side", s.seed_side, "The same for SEED", one_of({"auto", "src", "tgt", "both", "line"}));
  s.corpus.add_to(o, "lines");
  o.add("mincount", s.mincount, "Words seen fewer times in both REPR and UNAD are not selectable",
        whole_number(0, kAnyCount));
  o.add_switch("keep-boring", s.keep_boring, "Keep words with e^-1 < ratio < e selectable");
  o.add_switch("batch", s.batch, "Select ceil(sqrt(k)) lines per iteration (k = lines of the best word), else one");
  o.add("length-cap", s.length_cap, "AVAIL lines with more tokens are junk (ranked last)",
        whole_number(1, std::numeric_limits<std::uint32_t>::max()));
  o.add_switch("skip-seed-lines", s.skip_seed_lines,
               "AVAIL lines whose text (on --side, exact bytes) is a --seed-corpus line are not selected: flagged 8 "
               "and ranked after the selectable lines, before junk");
  o.add_switch("stop", s.stop, "Keep only the lines up to stop_rank selected (the rest flagged 4, not selected)");
  o.add("checkpoint", s.checkpoint,
        "Checkpoint file written on SIGTERM/SIGUSR1 (then exit 75) and by --checkpoint-every (default: OUTPUT.ckpt); "
        "absent or a tdcone checkpoint, never another file");
  o.add_action_flag("resume", s.resume, "Continue from the checkpoint of an interrupted run with the same inputs and options");
  o.add("checkpoint-every", s.checkpoint_every, "Also write a checkpoint every this many minutes (0 = never)",
        real_number(0, kInfinity));
  s.output.add_to(o);
}

void add_synth_options(OptionSet& o, SynthOptionsCli& s) {
  o.add("profile", s.profile,
        "Shape of the corpus. twitter: news headlines (src), each with a run of ~13 consecutive candidate tweets "
        "(tgt; mostly loosely related, some paraphrases, a few copies; #hashtags, @handles, numbers, links) and a "
        "classifier-like score that rises with closeness; stories of a few runs share made-up names. Calibrated "
        "on the Twitter URL corpus (10k pairs: TD-CONE ~0.48, ~60 alignment cells a pair; 2.8M pairs: ~0.39, "
        "~200k word types a side; docs/synth-calibration.md). paraphrase: every line a fresh Zipfian sentence "
        "and a close paraphrase of it (low TD-CONE; the generator before profiles, same bytes)",
        one_of({"twitter", "paraphrase"}));
  o.add("pairs", s.pairs, "Number of lines", whole_number(1, kMaxSynthPairs));
  o.add("first-pair", s.first_pair, "Start at this line of the seed's corpus: a held-out reference is --first-pair N with N beyond the corpus",
        whole_number(0, kMaxFirstPair));
  o.add("seed", s.seed, "Random seed: same seed, same corpus (and vocabulary)", whole_number(0, kAnyCount));
  o.add("vocabulary", s.vocabulary, "Word types of the Zipfian vocabulary (twitter: besides made-up names, handles, numbers and links)",
        whole_number(100, 10'000'000));
  o.add("junk-fraction", s.junk_fraction, "Fraction of junk lines (empty sides, over-long, malformed)", real_number(0, 1));
  o.add_switch("labels", s.labels,
               "Two more columns of style labels (columns 1-4 unchanged): 5 formality, a number in [0, 1] with 3 "
               "decimals, and 6 arousal, 'aroused' or 'calm'; tied to each headline (paraphrase: each source's rarest "
               "word) and to how close the pair is, skewed like a real style corpus: with formal = formality >= 0.5, "
               "formal|aroused ~64%, formal|calm ~21%, informal|aroused ~9%, informal|calm ~6%. About half of "
               "--junk-fraction of the lines have a bad label: formality 'n/a' or no column 6");
  o.add("output", s.output, "File to write ('-' = standard output; a name ending in .zst writes multi-frame zstd)")->required();
  o.add_action_flag("force", s.force, "Overwrite an existing output file (never one of the inputs)");
}

}  // namespace tdcone::cli
