#include "tdcone/schema/pair_flags.hpp"

namespace tdcone::schema {

const std::vector<FlagBit>& flag_bits() {
  static const std::vector<FlagBit> bits = {
      {bad_line, "bad_line", "the line could not be read as a pair (a missing field, bad UTF-8, a score that is not a finite "
                             "number...); skipped under --on-bad-line skip; its tdcone and score are NaN"},
      {junk, "junk", "junk for selection: no tokens, or over the length cap"},
      {not_selected, "not_selected", "ranked after stop_rank, cut by --stop"},
      {in_seed, "in_seed", "already in the seed corpus (not selectable)"},
      {no_label, "no_label", "missing or unusable label"},
      {duplicate, "duplicate", "a later copy of a pair under --dedup (dup_of: its first occurrence); still scored"},
      {in_reference, "in_reference", "under --dedup, the pair's key is also a --reference pair's"},
      {left_out, "left_out", "balance/select --where: its row of --where-result fails a condition (in no combination; not selectable)"},
  };
  return bits;
}

}  // namespace tdcone::schema
