#pragma once
// What every profile writes the same way: junk lines, the score and id columns.
#include <cstdint>
#include <string>

#include "tdcone/synth/random.hpp"

namespace tdcone::synth {

/// A line's kind of junk (bad or useless pairs, as real corpora have), or none.
enum class Junk { none, empty_tgt, empty_src, long_tgt, identical, no_tab, bad_score };

/// No junk with chance 1 - `fraction`, else a kind of junk (the bad lines for readers are rare).
Junk pick_junk(double fraction, Rng& rng);

/// Appends `value` in decimal.
void append_number(std::uint64_t value, std::string& out);

/// Columns 3 and 4: "\t" score "\tsyn-SEED-INDEX" (or "\tn/a" for the bad-score junk),
/// the score a classifier-like probability around `quality`.
void append_score_and_id(Junk junk, double quality, std::uint64_t seed, std::uint64_t index, Rng& rng,
                         std::string& out);

}  // namespace tdcone::synth
