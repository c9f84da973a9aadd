#pragma once
// The bits of every `flags` column (/pairs, /selection, /balance; docs/spec.md §8).
// New bits are added, never renumbered: results and scripts keep their meaning.
#include <cstdint>
#include <vector>

namespace tdcone::schema {

/// One bit of a `flags` column. Unscoped, so that bits combine with `|`.
enum PairFlag : std::uint8_t {
  /// The line could not be read as a pair (a missing field, bad UTF-8, a
  /// score that is not a finite number...): skipped under `--on-bad-line
  /// skip`, never scored; its tdcone and score are NaN.
  bad_line = 1,
  /// Junk for selection: a side with no tokens, or more than `--length-cap`; ranked last.
  junk = 2,
  /// Ranked, but after stop_rank, and `--stop` keeps only the lines up to it.
  not_selected = 4,
  /// The AVAIL line is already in the seed corpus (`--skip-seed-lines`): not selectable.
  in_seed = 8,
  /// The line's label is missing or unusable: it belongs to no label combination.
  no_label = 16,
  /// A later copy of a pair (--dedup): the same key as a pair with a smaller
  /// pair_id (/pairs dup_of). Still scored: only flagged.
  duplicate = 32,
  /// The pair's key (--dedup) is also the key of a reference pair (--reference).
  in_reference = 64,
  /// balance --where: the line's /pairs row in --where-result fails a
  /// condition, so it is in no combination (the last bit of the u8 flags).
  left_out = 128,
};

/// A flag bit with its name (the enumerator's) and its meaning, for the schema's JSON.
struct FlagBit {
  PairFlag bit;
  const char* name;
  const char* about;
};

/// Every bit, lowest first.
const std::vector<FlagBit>& flag_bits();

}  // namespace tdcone::schema
