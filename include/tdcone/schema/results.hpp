#pragma once
// The layout of a tdcone result file (docs/spec.md §8): every group, column and
// attribute tdcone writes, with its stored type and when it is present. The
// writers, export, info and the checks take the names from here; the Python
// scripts from scripts/tdcone_schema.json, which is json() (schema_json.hpp).
//
// A column is written as `file.write_column(schema::pairs::tdcone.path(), ...)`
// or, within its table, by `schema::pairs::tdcone.name`; an attribute as
// `file.set_attribute(schema::corpus::nnz.object, schema::corpus::nnz.name, ...)`.
#include <string>
#include <string_view>
#include <vector>

namespace tdcone::schema {

/// How a column or attribute is stored, named as `tdcone info` names it.
enum class Type { u8, u16, u32, u64, f64, string, u64_array };

/// When a column or attribute is in a result.
enum class Presence {
  required,  ///< always written; the checks refuse a result (tdcone_version) or a checked table without it
  always,    ///< always written with its group, but not checked: older results may lack it
  optional,  ///< written by some runs or options only (its `about` says which)
  prefix,    ///< a family of attributes: `name` is the prefix, one attribute per phase or label
  legacy,    ///< no longer written; read from results of an older tdcone
};

/// One column (1-D dataset) of a group.
struct Column {
  const char* group;  ///< "/pairs"
  const char* name;   ///< "tdcone"
  Type type;
  Presence presence;
  const char* about;    ///< what it holds, for people
  std::string path() const;  ///< "/pairs/tdcone"
};

/// One attribute of "/" or a group.
struct Attribute {
  const char* object;  ///< "/" or "/corpus"
  const char* name;    ///< "n_pairs"; a prefix for Presence::prefix
  Type type;
  Presence presence;
  const char* about;
  /// The name of one of a Presence::prefix family: `name` + `suffix` ("seconds_" + "read").
  std::string name_with(std::string_view suffix) const;
};

/// The score columns a per-subset table (/shards, /sweep, /labels) writes
/// after its own, in this order.
struct ScoreColumns {
  const Column* tdcone;
  const Column* cond_entropy;  ///< nullptr: the table has none
  const Column* kl_pq;         ///< kl_pq, kl_pu, tdcone_rel: with --reference
  const Column* kl_pu;
  const Column* tdcone_rel;
  const Column* bleu;               ///< bleu, unigram_precision: always, after the others
  const Column* unigram_precision;
};

// ---- root: attributes of "/" ----
namespace root {
inline constexpr char group[] = "/";
inline constexpr Attribute tdcone_version{group, "tdcone_version", Type::string, Presence::required,
                                          "version of the tdcone that wrote the file (MAJOR.MINOR.PATCH)"};
inline constexpr Attribute command{group, "command", Type::string, Presence::always, "the subcommand"};
inline constexpr Attribute config{group, "config", Type::string, Presence::always, "the effective options, as TOML"};
inline constexpr Attribute n_ranks{group, "n_ranks", Type::u64, Presence::always, "MPI ranks of the run"};
inline constexpr Attribute created{group, "created", Type::string, Presence::always, "UTC time of writing"};
inline constexpr Attribute n_lines{group, "n_lines", Type::u64, Presence::always, "input lines read"};
inline constexpr Attribute n_scored{group, "n_scored", Type::u64, Presence::always, "lines scored"};
inline constexpr Attribute n_flagged{group, "n_flagged", Type::u64, Presence::always,
                                     "lines flagged (n_lines = n_scored + n_flagged)"};
inline constexpr Attribute seconds{group, "seconds_", Type::f64, Presence::prefix,
                                   "seconds_<phase>: rank 0's wall clock of each phase (with /corpus)"};
inline constexpr Attribute peak_rss_bytes{group, "peak_rss_bytes", Type::u64, Presence::optional,
                                          "the largest peak resident memory of a rank (with /corpus)"};
inline constexpr Attribute peak_rss_bytes_per_rank{group, "peak_rss_bytes_per_rank", Type::string, Presence::optional,
                                                   "each rank's peak resident memory, comma-separated (with /corpus)"};
inline constexpr Attribute memory_budget_bytes{group, "memory_budget_bytes", Type::u64, Presence::optional,
                                               "memory budget per rank (with /corpus)"};
inline constexpr Attribute cell_updates{group, "cell_updates", Type::u64, Presence::optional,
                                        "cells added to the alignment matrix before combining, over all ranks and "
                                        "passes: the work of the align phase (with /corpus)"};
inline constexpr Attribute inputs{group, "inputs", Type::string, Presence::legacy,
                                  "input paths, one a line (now the /inputs table)"};
inline constexpr Attribute input_sizes{group, "input_sizes", Type::u64_array, Presence::legacy, "now /inputs/size"};
inline constexpr Attribute input_lines{group, "input_lines", Type::u64_array, Presence::legacy, "now /inputs/lines"};
inline constexpr Attribute input_fingerprints{group, "input_fingerprints", Type::u64_array, Presence::legacy,
                                              "now /inputs/fingerprint"};
}  // namespace root

// ---- /inputs: one row per input file ----
namespace inputs {
inline constexpr char group[] = "/inputs";
inline constexpr Column path{group, "path", Type::string, Presence::always, "absolute path of the file as read"};
inline constexpr Column size{group, "size", Type::u64, Presence::always, "its size in bytes (a stream: the bytes it delivered)"};
inline constexpr Column lines{group, "lines", Type::u64, Presence::optional,
                              "its lines (when every rank counted them)"};
inline constexpr Column fingerprint{group, "fingerprint", Type::u64, Presence::optional,
                                    "its content fingerprint (with lines)"};
}  // namespace inputs

// ---- /corpus: attributes of the whole corpus (score, sweep; balance when it scores) ----
namespace corpus {
inline constexpr char group[] = "/corpus";
inline constexpr Attribute tdcone{group, "tdcone", Type::f64, Presence::always, "corpus TD-CONE"};
inline constexpr Attribute cond_entropy{group, "cond_entropy", Type::f64, Presence::always, "H(Y|X) in nats"};
inline constexpr Attribute n_pairs{group, "n_pairs", Type::u64, Presence::always, "pairs scored"};
inline constexpr Attribute vx{group, "vx", Type::u64, Presence::always, "|V_x|, input word types"};
inline constexpr Attribute vy{group, "vy", Type::u64, Presence::always, "|V_y|, output word types"};
inline constexpr Attribute nnz{group, "nnz", Type::u64, Presence::always, "non-zero cells of the co-occurrence matrix"};
inline constexpr Attribute tdcone_rel{group, "tdcone_rel", Type::f64, Presence::optional,
                                      "TD-CONE_REL (with --reference)"};
inline constexpr Attribute kl_pq{group, "kl_pq", Type::f64, Presence::optional, "KL(P||Q) (with --reference)"};
inline constexpr Attribute kl_pu{group, "kl_pu", Type::f64, Presence::optional, "KL(P||U) (with --reference)"};
inline constexpr Attribute bleu{group, "bleu", Type::f64, Presence::always,
                                "BLEU of the outputs against the inputs: geometric mean of Σm_n/Σc_n, n = 1..4, "
                                "no brevity penalty, no smoothing (0 if any Σm_n is 0; NaN: no output token)"};
inline constexpr Attribute unigram_precision{group, "unigram_precision", Type::f64, Presence::always,
                                             "Σm_1/Σc_1: output tokens found in their input, clipped (NaN: none)"};
inline constexpr Attribute n_duplicates{group, "n_duplicates", Type::u64, Presence::optional,
                                        "pairs flagged duplicate: later copies of a pair (with --dedup)"};
inline constexpr Attribute n_in_reference{group, "n_in_reference", Type::u64, Presence::optional,
                                          "pairs flagged in_reference: their key is a reference pair's (with --dedup "
                                          "and --reference)"};
// With --align static and --embeddings: how much the vectors decided.
inline constexpr Attribute vx_with_vector{group, "vx_with_vector", Type::u64, Presence::optional,
                                          "input word types of the scored lines with a vector in --embeddings "
                                          "(--align static)"};
inline constexpr Attribute vy_with_vector{group, "vy_with_vector", Type::u64, Presence::optional,
                                          "output word types of the scored lines with a vector (--align static)"};
inline constexpr Attribute spread_words{group, "spread_words", Type::u64, Presence::optional,
                                        "x\\y words of the pairs in the matrix whose y\\x is not empty: each spreads a "
                                        "unit of alignment mass over y\\x (--align static)"};
inline constexpr Attribute spread_by_vectors{group, "spread_by_vectors", Type::u64, Presence::optional,
                                             "of spread_words, those spread by cosine similarity (the word and every "
                                             "word of its y\\x have a vector); the others evenly (--align static)"};
inline constexpr Attribute vector_share_vx{group, "vector_share_vx", Type::f64, Presence::optional,
                                           "vx_with_vector over the input word types of the scored lines (--align "
                                           "static; NaN: none)"};
inline constexpr Attribute vector_share_vy{group, "vector_share_vy", Type::f64, Presence::optional,
                                           "vy_with_vector over the output word types of the scored lines (--align "
                                           "static; NaN: none)"};
inline constexpr Attribute vector_share_mass{group, "vector_share_mass", Type::f64, Presence::optional,
                                             "spread_by_vectors / spread_words: the share of the alignment mass the "
                                             "vectors decided (--align static; NaN: no word spread)"};
}  // namespace corpus

// ---- /pairs: one row per input line, in pair_id order (score, sweep; balance when it scores) ----
namespace pairs {
inline constexpr char group[] = "/pairs";
inline constexpr Column pair_id{group, "pair_id", Type::u64, Presence::required,
                                "the line's number in the input, from 0"};
inline constexpr Column tdcone{group, "tdcone", Type::f64, Presence::required,
                               "the pair's TD-CONE, in [0, 1] (rounding noise clamped; NaN: not scored)"};
inline constexpr Column rank{group, "rank", Type::u64, Presence::required,
                             "1 = lowest TD-CONE, ties by pair_id; bad lines last"};
inline constexpr Column flags{group, "flags", Type::u8, Presence::required, "flag bits (the schema's flags)"};
inline constexpr Column src_len{group, "src_len", Type::u32, Presence::required, "input side tokens"};
inline constexpr Column tgt_len{group, "tgt_len", Type::u32, Presence::required, "output side tokens"};
inline constexpr Column score{group, "score", Type::f64, Presence::optional,
                              "the score column (with a score field); NaN for a bad line (a score that is not a "
                              "finite number makes the line bad)"};
inline constexpr Column id{group, "id", Type::string, Presence::optional, "the id column (with an id field)"};
inline constexpr Column shard{group, "shard", Type::u32, Presence::optional, "the pair's shard (score --shards)"};
inline constexpr Column sweep_mask{group, "sweep_mask", Type::u64, Presence::optional,
                                   "bit i: the pair is in the (sampled) subset of threshold i (sweep)"};
inline constexpr Column bleu{group, "bleu", Type::f64, Presence::always,
                             "BLEU of the output against the input, no brevity penalty: geometric mean of p_1 = "
                             "m_1/c_1 and p_n = (m_n+1)/(c_n+1), n = 2..4 (0 if m_1 = 0; NaN: empty output, bad line)"};
inline constexpr Column unigram_precision{group, "unigram_precision", Type::f64, Presence::always,
                                          "m_1/c_1: output tokens found in the input, clipped (NaN: empty output)"};
inline constexpr Column len_ratio{group, "len_ratio", Type::f64, Presence::always,
                                  "the longer side's tokens over the shorter's (inf: one side empty; NaN: both)"};
inline constexpr Column markers{group, "markers", Type::u16, Presence::always,
                                "marker bits: URL, @mention, #hashtag, question per side, copy (the schema's markers)"};
inline constexpr Column dup_of{group, "dup_of", Type::u64, Presence::optional,
                               "pair_id of the first pair with the same --dedup key; its own pair_id for a first "
                               "occurrence and for a bad line (with --dedup)"};
inline constexpr Column src_group{group, "src_group", Type::u64, Presence::optional,
                                  "pair_id of the first pair with the same input side (--dedup key of the side); its "
                                  "own for a bad line (with --dedup)"};
inline constexpr Column src_group_size{group, "src_group_size", Type::u64, Presence::optional,
                                       "pairs with that input side; 0 for a bad line, in no group (with --dedup)"};
}  // namespace pairs

// ---- /shards: one row per shard (score --shards) ----
namespace shards {
inline constexpr char group[] = "/shards";
inline constexpr Column shard{group, "shard", Type::u64, Presence::required, "shard number, from 0"};
inline constexpr Column file{group, "file", Type::string, Presence::optional,
                             "its input files, ', '-joined (--shard-by file)"};
inline constexpr Column n_pairs{group, "n_pairs", Type::u64, Presence::required, "pairs scored in the shard"};
inline constexpr Column tdcone{group, "tdcone", Type::f64, Presence::required, "the shard's TD-CONE"};
inline constexpr Column kl_pq{group, "kl_pq", Type::f64, Presence::optional, "KL(P||Q) (with --reference)"};
inline constexpr Column kl_pu{group, "kl_pu", Type::f64, Presence::optional, "KL(P||U) (with --reference)"};
inline constexpr Column tdcone_rel{group, "tdcone_rel", Type::f64, Presence::optional,
                                   "TD-CONE_REL (with --reference)"};
inline constexpr Column bleu{group, "bleu", Type::f64, Presence::always, "BLEU of its pairs (as /corpus bleu)"};
inline constexpr Column unigram_precision{group, "unigram_precision", Type::f64, Presence::always,
                                          "unigram precision of its pairs (as /corpus)"};
inline constexpr Column n_sampled{group, "n_sampled", Type::u64, Presence::optional,
                                  "pairs in each replicate's sample of the shard: min(N, n_pairs) (with --sample)"};
inline constexpr Column p_best{group, "p_best", Type::f64, Presence::optional,
                               "share of the replicates in which this row has the lowest ranked metric (with --sample; "
                               "/intervals ranked_by)"};
inline constexpr ScoreColumns scores{&tdcone, nullptr, &kl_pq, &kl_pu, &tdcone_rel, &bleu, &unigram_precision};
}  // namespace shards

// ---- /sweep: one row per score threshold (sweep) ----
namespace sweep {
inline constexpr char group[] = "/sweep";
inline constexpr Column threshold{group, "threshold", Type::f64, Presence::required, "the threshold t"};
inline constexpr Column n_pairs{group, "n_pairs", Type::u64, Presence::required,
                                "|S_t|, pairs with score >= t (or the direction's test of sweep_by)"};
inline constexpr Column n_sampled{group, "n_sampled", Type::u64, Presence::required,
                                  "pairs of S_t scored (the sample, or all of S_t)"};
inline constexpr Column tdcone{group, "tdcone", Type::f64, Presence::required, "TD-CONE of S_t"};
inline constexpr Column kl_pq{group, "kl_pq", Type::f64, Presence::optional, "KL(P||Q) (with --reference)"};
inline constexpr Column kl_pu{group, "kl_pu", Type::f64, Presence::optional, "KL(P||U) (with --reference)"};
inline constexpr Column tdcone_rel{group, "tdcone_rel", Type::f64, Presence::optional,
                                   "TD-CONE_REL (with --reference)"};
inline constexpr Column bleu{group, "bleu", Type::f64, Presence::always, "BLEU of its pairs (as /corpus bleu)"};
inline constexpr Column unigram_precision{group, "unigram_precision", Type::f64, Presence::always,
                                          "unigram precision of its pairs (as /corpus)"};
inline constexpr Column p_best{group, "p_best", Type::f64, Presence::optional,
                               "share of the replicates in which this row has the lowest ranked metric (with --sample; "
                               "/intervals ranked_by)"};
inline constexpr ScoreColumns scores{&tdcone, nullptr, &kl_pq, &kl_pu, &tdcone_rel, &bleu, &unigram_precision};
inline constexpr Attribute sweep_by{group, "sweep_by", Type::string, Presence::always,
                                    "the per-pair value thresholded: score, bleu, unigram_precision or len_ratio "
                                    "(--sweep-by; older results: score)"};
inline constexpr Attribute direction{group, "direction", Type::string, Presence::always,
                                     "'>=': S_t holds the pairs whose value is >= t; '<=': <= t (--below)"};
}  // namespace sweep

// ---- /labels: one row per label value or combination (score --by-label) ----
namespace labels {
inline constexpr char group[] = "/labels";
inline constexpr Column label{group, "label", Type::string, Presence::required,
                              "a combination (formal|aroused) or a value (formal|*)"};
inline constexpr Column n_pairs{group, "n_pairs", Type::u64, Presence::required, "pairs scored with it"};
inline constexpr Column tdcone{group, "tdcone", Type::f64, Presence::required, "their TD-CONE"};
inline constexpr Column cond_entropy{group, "cond_entropy", Type::f64, Presence::always,
                                     "their H(Y|X) in nats"};
inline constexpr Column kl_pq{group, "kl_pq", Type::f64, Presence::optional, "KL(P||Q) (with --reference)"};
inline constexpr Column kl_pu{group, "kl_pu", Type::f64, Presence::optional, "KL(P||U) (with --reference)"};
inline constexpr Column tdcone_rel{group, "tdcone_rel", Type::f64, Presence::optional,
                                   "TD-CONE_REL (with --reference)"};
inline constexpr Column bleu{group, "bleu", Type::f64, Presence::always, "BLEU of its pairs (as /corpus bleu)"};
inline constexpr Column unigram_precision{group, "unigram_precision", Type::f64, Presence::always,
                                          "unigram precision of its pairs (as /corpus)"};
inline constexpr Column n_sampled{group, "n_sampled", Type::u64, Presence::optional,
                                  "pairs in each replicate's sample of the row: min(N, n_pairs) (with --sample)"};
inline constexpr Column p_best{group, "p_best", Type::f64, Presence::optional,
                               "share of the replicates in which this row has the lowest ranked metric (with --sample; "
                               "/intervals ranked_by)"};
inline constexpr ScoreColumns scores{&tdcone, &cond_entropy, &kl_pq, &kl_pu, &tdcone_rel, &bleu, &unigram_precision};
}  // namespace labels

// ---- /lengths: one row per bucket of input lengths (score --length-buckets) ----
namespace lengths {
inline constexpr char group[] = "/lengths";
inline constexpr Column max_src_len{group, "max_src_len", Type::u64, Presence::required,
                                    "the bucket's largest input length in tokens, above the bucket before; "
                                    "18446744073709551615 (u64 max): the overflow bucket, above the last bound"};
inline constexpr Column n_pairs{group, "n_pairs", Type::u64, Presence::required, "pairs scored in the bucket"};
inline constexpr Column tdcone{group, "tdcone", Type::f64, Presence::required, "their TD-CONE"};
inline constexpr Column kl_pq{group, "kl_pq", Type::f64, Presence::optional, "KL(P||Q) (with --reference)"};
inline constexpr Column kl_pu{group, "kl_pu", Type::f64, Presence::optional, "KL(P||U) (with --reference)"};
inline constexpr Column tdcone_rel{group, "tdcone_rel", Type::f64, Presence::optional,
                                   "TD-CONE_REL (with --reference)"};
inline constexpr Column bleu{group, "bleu", Type::f64, Presence::required, "BLEU of its pairs (as /corpus bleu)"};
inline constexpr Column unigram_precision{group, "unigram_precision", Type::f64, Presence::required,
                                          "unigram precision of its pairs (as /corpus)"};
inline constexpr Column n_sampled{group, "n_sampled", Type::u64, Presence::optional,
                                  "pairs in each replicate's sample of the bucket: min(N, n_pairs) (with --sample)"};
inline constexpr Column p_best{group, "p_best", Type::f64, Presence::optional,
                               "share of the replicates in which this row has the lowest ranked metric (with --sample; "
                               "/intervals ranked_by)"};
inline constexpr ScoreColumns scores{&tdcone, nullptr, &kl_pq, &kl_pu, &tdcone_rel, &bleu, &unigram_precision};
}  // namespace lengths

// ---- /replicates: one row per subset and replicate (with --sample) ----
namespace replicates {
inline constexpr char group[] = "/replicates";
inline constexpr Column table{group, "table", Type::string, Presence::required,
                              "the table of the subset: corpus, shards, sweep, labels or lengths"};
inline constexpr Column row{group, "row", Type::u64, Presence::required, "its row in that table (corpus: 0)"};
inline constexpr Column replicate{group, "replicate", Type::u64, Presence::required, "the replicate r, from 0"};
inline constexpr Column n_sampled{group, "n_sampled", Type::u64, Presence::required, "pairs of the sample"};
inline constexpr Column tdcone{group, "tdcone", Type::f64, Presence::required, "TD-CONE of the sample"};
inline constexpr Column kl_pq{group, "kl_pq", Type::f64, Presence::optional, "KL(P||Q) (with --reference)"};
inline constexpr Column kl_pu{group, "kl_pu", Type::f64, Presence::optional, "KL(P||U) (with --reference)"};
inline constexpr Column tdcone_rel{group, "tdcone_rel", Type::f64, Presence::optional,
                                   "TD-CONE_REL (with --reference)"};
inline constexpr Column bleu{group, "bleu", Type::f64, Presence::always, "BLEU of the sample's pairs"};
inline constexpr Column unigram_precision{group, "unigram_precision", Type::f64, Presence::always,
                                          "unigram precision of the sample's pairs"};
inline constexpr Attribute sample{group, "sample", Type::u64, Presence::always, "N, pairs per sample (--sample)"};
inline constexpr Attribute replicates{group, "replicates", Type::u64, Presence::always, "R (--replicates)"};
inline constexpr Attribute seed{group, "seed", Type::u64, Presence::always,
                                "the seed s: replicate r hashes with s + r * 0x9E3779B97F4A7C15 (mod 2^64)"};
}  // namespace replicates

// ---- /intervals: one row per subset and metric, over its replicates (with --sample) ----
namespace intervals {
inline constexpr char group[] = "/intervals";
inline constexpr Column table{group, "table", Type::string, Presence::required, "as /replicates table"};
inline constexpr Column row{group, "row", Type::u64, Presence::required, "as /replicates row"};
inline constexpr Column metric{group, "metric", Type::string, Presence::required,
                               "tdcone, kl_pq, kl_pu, tdcone_rel, bleu or unigram_precision"};
inline constexpr Column value{group, "value", Type::f64, Presence::required,
                              "the row's own value in its table (all its pairs, or the sweep's sample)"};
inline constexpr Column mean{group, "mean", Type::f64, Presence::required, "mean over the replicates"};
inline constexpr Column sd{group, "sd", Type::f64, Presence::required,
                           "standard deviation over the replicates (R - 1; NaN for R = 1)"};
inline constexpr Column lo{group, "lo", Type::f64, Presence::required,
                           "2.5 % percentile of the replicates (linear, as numpy.percentile)"};
inline constexpr Column hi{group, "hi", Type::f64, Presence::required, "97.5 % percentile of the replicates"};
inline constexpr Attribute ranked_by{group, "ranked_by", Type::string, Presence::always,
                                     "the metric p_best ranks by, lowest best: tdcone_rel with --reference, else tdcone"};
}  // namespace intervals

// ---- /curves: one row per subset, size and metric (with --at-sizes) ----
namespace curves {
inline constexpr char group[] = "/curves";
inline constexpr Column table{group, "table", Type::string, Presence::required, "as /replicates table"};
inline constexpr Column row{group, "row", Type::u64, Presence::required, "as /replicates row"};
inline constexpr Column metric{group, "metric", Type::string, Presence::required,
                               "tdcone, or tdcone_rel (with --reference)"};
inline constexpr Column size{group, "size", Type::u64, Presence::required, "the sample size asked for (--at-sizes)"};
inline constexpr Column n_sampled{group, "n_sampled", Type::u64, Presence::required,
                                  "pairs in each sample: min(size, the subset's pairs)"};
inline constexpr Column mean{group, "mean", Type::f64, Presence::required, "mean over the replicates"};
inline constexpr Column sd{group, "sd", Type::f64, Presence::required, "standard deviation (R - 1; NaN for R = 1)"};
inline constexpr Column lo{group, "lo", Type::f64, Presence::required, "2.5 % percentile of the replicates"};
inline constexpr Column hi{group, "hi", Type::f64, Presence::required, "97.5 % percentile of the replicates"};
inline constexpr Attribute replicates{group, "replicates", Type::u64, Presence::always, "R, samples at each size"};
inline constexpr Attribute seed{group, "seed", Type::u64, Presence::always, "as /replicates seed"};
}  // namespace curves

// ---- /selection: rows in selection order (select) ----
namespace selection {
inline constexpr char group[] = "/selection";
inline constexpr Column pair_id{group, "pair_id", Type::u64, Presence::required, "the AVAIL line's number, from 0"};
inline constexpr Column rank{group, "rank", Type::u64, Presence::required, "1-based rank in selection order"};
inline constexpr Column delta_h{group, "delta_h", Type::f64, Presence::required,
                                "ΔH = penalty + gain, as estimated when selected (NaN for junk)"};
inline constexpr Column penalty{group, "penalty", Type::f64, Presence::required, "the penalty of its length (>= 0)"};
inline constexpr Column gain{group, "gain", Type::f64, Presence::required, "the gain of its words (<= 0)"};
inline constexpr Column cross_entropy{group, "cross_entropy", Type::f64, Presence::required,
                                      "exact H of REPR under SEED + the lines up to this one (nats)"};
inline constexpr Column root_word{group, "root_word", Type::string, Presence::required, "the iteration's best word"};
inline constexpr Column wge{group, "wge", Type::f64, Presence::required, "its word gain estimate"};
inline constexpr Column flags{group, "flags", Type::u8, Presence::required, "flag bits (the schema's flags)"};
inline constexpr Attribute stop_rank{group, "stop_rank", Type::u64, Presence::always, "the n minimizing H_n"};
inline constexpr Attribute h_initial{group, "h_initial", Type::f64, Presence::always, "H_0, the seed's cross-entropy"};
inline constexpr Attribute repr_tokens{group, "repr_tokens", Type::u64, Presence::always, "REPR tokens"};
inline constexpr Attribute lexicon{group, "lexicon", Type::u64, Presence::always, "|L|, word types of the lexicon"};
inline constexpr Attribute in_seed{group, "in_seed", Type::u64, Presence::always,
                                   "AVAIL lines skipped as already in the seed"};
inline constexpr Attribute left_out{group, "left_out", Type::u64, Presence::always,
                                    "AVAIL lines left out by --where (flags 128)"};
}  // namespace selection

// ---- /balance: one row per labelled line (balance) ----
namespace balance {
inline constexpr char group[] = "/balance";
inline constexpr Column pair_id{group, "pair_id", Type::u64, Presence::required, "the line's number, from 0"};
inline constexpr Column combination{group, "combination", Type::string, Presence::required,
                                    "its combination (empty without a usable label)"};
inline constexpr Column kept{group, "kept", Type::u8, Presence::required, "1: in the balanced subset"};
inline constexpr Column rank_in_combination{group, "rank_in_combination", Type::u64, Presence::required,
                                            "1-based rank within its combination (--rank-by; 0 without one)"};
inline constexpr Column flags{group, "flags", Type::u8, Presence::required, "flag bits (the schema's flags)"};
inline constexpr Attribute mode{group, "mode", Type::string, Presence::always, "joint | marginal | skewed"};
inline constexpr Attribute rank_by{group, "rank_by", Type::string, Presence::always, "tdcone | cynical | random"};
inline constexpr Attribute min_share{group, "min_share", Type::f64, Presence::always, "--min-share"};
inline constexpr Attribute labels{group, "labels", Type::string, Presence::always, "the labels' names, '|'-joined"};
inline constexpr Attribute n_labelled{group, "n_labelled", Type::u64, Presence::always, "labelled lines"};
inline constexpr Attribute n_kept{group, "n_kept", Type::u64, Presence::always, "lines kept"};
inline constexpr Attribute share_std_before{group, "share_std_before", Type::f64, Presence::always,
                                            "standard deviation of the combination shares before"};
inline constexpr Attribute share_std_after{group, "share_std_after", Type::f64, Presence::always, "the same after"};
inline constexpr Attribute marginal_deviation{group, "marginal_deviation_", Type::f64, Presence::prefix,
                                              "marginal_deviation_<label>: the largest |share of a value - 1/n_L| "
                                              "in the subset"};
}  // namespace balance

// ---- /combinations: one row per label combination (balance) ----
namespace combinations {
inline constexpr char group[] = "/combinations";
inline constexpr Column combination{group, "combination", Type::string, Presence::required, "the label combination"};
inline constexpr Column before{group, "before", Type::u64, Presence::required, "its lines before"};
inline constexpr Column target{group, "target", Type::f64, Presence::required,
                               "the mode's aim (joint: the common size; marginal: the fitted weight; "
                               "skewed: size·share)"};
inline constexpr Column after{group, "after", Type::u64, Presence::required, "its lines kept"};
inline constexpr Column under_represented{group, "under_represented", Type::u8, Presence::required,
                                          "1 = below --min-share or absent"};
}  // namespace combinations

/// One group of a result: its columns and attributes, and the command that writes it.
struct Table {
  const char* group;   ///< "/pairs"
  const char* writer;  ///< for messages: "tdcone score --by-label"
  /// A table the checks (check_result_table, the scripts' check_result) hold to
  /// its required columns before export or a script reads it.
  bool checked;
  std::vector<const Column*> columns;         ///< in the order they are written
  std::vector<const Attribute*> attributes;
  /// The names of its Presence::required columns, in order (what the checks ask for).
  std::vector<std::string> required_columns() const;
};

/// Every group but the root, in the order of docs/spec.md §8.
const std::vector<Table>& tables();
/// The table of `group` ("/pairs"), or nullptr.
const Table* find_table(std::string_view group);
/// The attributes of "/".
const std::vector<const Attribute*>& root_attributes();
/// "u64", "f64", "string", ...
const char* type_name(Type type);
/// "required", "always", "optional", "prefix", "legacy".
const char* presence_name(Presence presence);

}  // namespace tdcone::schema
