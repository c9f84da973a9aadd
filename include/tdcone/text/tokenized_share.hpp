#pragma once
// One rank's share of a corpus as word-type sets (io -> text): the tables
// of its pairs. Reading it, with the pairs numbered over all ranks, is
// mpi/share_reader.hpp's.
#include <cassert>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tdcone/core/string_column.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/text/dedup_key.hpp"
#include "tdcone/text/label_interner.hpp"
#include "tdcone/text/lexical_diversity.hpp"
#include "tdcone/text/tokenizer.hpp"
#include "tdcone/text/vocabulary.hpp"

namespace tdcone::text {

struct ReadOptions {
  io::FieldSpec fields;
  TokenizerOptions tokenizer;
  bool reverse = false;  // swap input and output sides
  bool keep_counts = false;  // also keep how often each type occurs (cynical selection)
  bool diversity = false;    // also each pair's n-gram matches and markers (TokenizedShare::diversity)
  io::LabelSpec labels;      // names and buckets of fields.label_cols / label_fields
  LabelInternerFactory label_interner;  // interns the labels' values: needed when fields have labels
  std::uint64_t max_line_bytes = 1 << 20;
  DedupMode dedup = DedupMode::none;  // with a mode, also the keys of each pair and its input side
};

/// A line flagged under --on-bad-line skip, located for the user.
struct BadLine {
  std::uint64_t pair_id = 0;
  std::string file;
  std::uint64_t line = 0;  // 1-based, within the file
  std::string reason;

  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & pair_id & file & line & reason;
  }
};

inline constexpr std::size_t kReportedBadLines = 20;

/// The pairs of one rank: a contiguous run of pair_ids, tokenized.
struct TokenizedShare {
  std::uint64_t first_pair_id = 0;
  std::uint64_t total_lines = 0;  // over all ranks
  std::vector<std::uint8_t> flags;
  std::vector<std::uint32_t> src_len, tgt_len;  // tokens (not types)
  std::vector<double> scores;                  // when the format has a score; NaN for a bad line
  StringColumn ids;                            // when the format has an id
  // Sorted, unique word types of each side (2i: pair i's input, 2i+1: its
  // output): type_count[k] of them at type_start[k] in `types`. A side that
  // repeats the last one read on its side (the Twitter URL corpus repeats an
  // input over many consecutive pairs) is its types again, not a copy.
  std::vector<std::uint64_t> type_start;
  std::vector<std::uint32_t> type_count;
  std::vector<WordId> types;
  // With ReadOptions::keep_counts: occurrences of each entry of `types`, and a
  // hash of the input and output text of each pair (to spot identical lines).
  std::vector<std::uint32_t> type_counts;
  std::vector<std::uint64_t> src_hash, tgt_hash;
  // With ReadOptions::diversity: each pair's n-gram matches and marker bits.
  PairDiversity diversity;
  // With ReadOptions::dedup: the key of each pair and of its input side (a
  // bad line's are {}, in no group); dropped once grouped (mpi/key_groups.hpp).
  std::vector<DedupKey> pair_keys, src_keys;
  // (first local pair, input file index) of every segment read, in order.
  std::vector<std::pair<std::size_t, std::size_t>> file_starts;
  // Per input file, over all ranks: its lines and io::LineFingerprint (the
  // same for any number of ranks; recorded so that export can check the file).
  // A parallel corpus: its src files, then its tgt files.
  std::vector<std::uint64_t> file_lines, file_fingerprints;
  // Per input file, over all ranks: the bytes read, as the run records them:
  // a file's size at the start, a stream's bytes as it delivered them. Empty
  // for a parallel corpus (no streams: the files' sizes).
  std::vector<std::uint64_t> file_sizes;
  std::uint64_t bad_count = 0;     // on this rank
  std::vector<BadLine> bad_lines;  // this rank's first kReportedBadLines
  // With labels: one value id per label and pair (the interner's "no value",
  // label::kNoValue, when the pair has no usable label: flags no_label, or a
  // bad line), each label's local values (ReadOptions::label_interner), and
  // the pairs flagged no_label.
  std::vector<std::uint32_t> label_ids;
  std::vector<std::vector<std::string>> label_values;
  std::uint64_t label_problem_count = 0;   // on this rank
  std::vector<BadLine> label_problems;     // this rank's first kReportedBadLines

  std::size_t size() const { return flags.size(); }
  /// Bytes held by this share (for the memory budget).
  std::uint64_t bytes() const;
  /// Frees the spare capacity of every vector, but a small spare (at most a
  /// quarter of the size: a vector reserved for its size, never written there).
  void shrink_to_fit();
  /// The word types of pairs [0, end) will not be read again (the score
  /// engine has aligned them): their pages go back to the system, so the
  /// alignment matrix grows into the memory the share gives up. Reading them
  /// after is a logic error (asserted in debug builds). A later pair's side
  /// may be an earlier side's types: those stay.
  void release_types_before(std::size_t end);
  /// Whether an engine run has begun to release the types (true on every
  /// rank of that run, also one without pairs).
  bool types_released() const { return types_released_; }
  /// Bytes of bytes() that release_types_before() gave back.
  std::uint64_t released_bytes() const { return released_bytes_; }
  /// A share of pairs `pairs` (local, increasing) of this one, with their
  /// flags, lengths and word types only: what the score engine reads. Its
  /// first_pair_id and total_lines are the caller's to set (they are global).
  /// Reading a pair whose types were released is a logic error.
  TokenizedShare copy_of_pairs(std::span<const std::size_t> pairs) const;
  /// Index of the input file of local pair i.
  std::size_t file_of(std::size_t i) const;
  std::span<const WordId> src_types(std::size_t i) const { return span(2 * i); }
  std::span<const WordId> tgt_types(std::size_t i) const { return span(2 * i + 1); }
  /// Where side k's types end in `types`.
  std::uint64_t type_end(std::size_t k) const { return type_start[k] + type_count[k]; }
  /// The types of all sides, each counted as often as it is a side: what
  /// messages carry, shared or not.
  std::uint64_t side_types() const;

 private:
  std::size_t types_released_before_ = 0;
  std::uint64_t types_released_to_ = 0;  // types [0, this) were released
  std::uint64_t released_bytes_ = 0;
  bool types_released_ = false;

  std::span<const WordId> span(std::size_t k) const {
    assert(k >= 2 * types_released_before_);
    return {types.data() + type_start[k], type_count[k]};
  }
};

}  // namespace tdcone::text
