#pragma once
// From tokenized shares of REPR, UNAD, AVAIL and SEED to what cynical
// selection works on: the replicated lexicon and counts, and this rank's
// AVAIL lines in lexicon ids.
#include <boost/mpi/communicator.hpp>

#include <optional>

#include "tdcone/select/cynical.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::select {

enum class Side { src, tgt, both };  // which text of a pair is "the line"

struct Corpora {
  text::Vocabulary vocabulary;  // local ids of all four
  text::TokenizedShare representative, available;
  std::optional<text::TokenizedShare> unadapted, seed;  // UNAD defaults to AVAIL, SEED to empty
  // The side counted in REPR, UNAD and SEED when it differs from AVAIL's (the
  // `side` of gather_statistics): each input is read with its own side (a
  // whole-line input as the same text on both sides, counted as src).
  std::optional<Side> representative_side, unadapted_side, seed_side;
};

/// The sorted union of every rank's words, and the counts of docs/spec.md §6, each
/// corpus counted on its side (`side` for AVAIL and for the others unless
/// Corpora sets theirs). `lexicon_id` maps local word ids to lexicon ids. Collective.
Statistics gather_statistics(const boost::mpi::communicator& comm, const Corpora& corpora, Side side,
                             std::vector<std::uint32_t>& lexicon_id);

/// Flags (schema::in_seed, bit 8) every AVAIL line of this rank that would be
/// selectable (not bad, 1 to `length_cap` tokens) and whose text on `side` is
/// a SEED line's: the same bytes after parsing (64-bit XXH3 of the field's
/// text; `both`: of both fields). Every rank learns every SEED line's hash, so
/// the flags do not depend on the number of ranks. Flagged lines count as if
/// they were not in AVAIL: not in C_A, nor in UNAD when it defaults to AVAIL,
/// and never selected. Returns how many lines were flagged over all ranks.
/// Collective; call it before gather_statistics.
std::uint64_t flag_seed_lines(const boost::mpi::communicator& comm, Corpora& corpora, Side side,
                              std::uint32_t length_cap);

/// The AVAIL lines of this rank that can be selected; `junk` gets the other
/// lines' positions in the share (no tokens, over the length cap, bad,
/// flagged schema::in_seed by flag_seed_lines or schema::left_out by --where).
AvailableLines available_lines(const text::TokenizedShare& available, Side side,
                               const std::vector<std::uint32_t>& lexicon_id, std::uint32_t length_cap,
                               std::vector<std::size_t>& junk);

/// This share's part of a corpus fingerprint: the sum mod 2^64 over its lines
/// of a hash of the line's text (as read, with keep_counts), flags and pair_id.
/// Summed over every rank, it is the same for any number of ranks, and changes
/// when a line changes or moves.
std::uint64_t lines_fingerprint(const text::TokenizedShare& share);

}  // namespace tdcone::select
