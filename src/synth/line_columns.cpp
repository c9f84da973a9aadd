#include "tdcone/synth/line_columns.hpp"

#include <algorithm>
#include <charconv>

namespace tdcone::synth {

namespace {

// A classifier-like probability: the quality plus noise (sd ~0.1), clipped to [0, 1], 4 decimals.
void append_score(double quality, Rng& rng, std::string& out) {
  const double noise = (rng.uniform() + rng.uniform() + rng.uniform() + rng.uniform() - 2) * 0.18;
  const double score = std::clamp(quality + noise, 0.0, 1.0);
  const auto ten_thousandths = static_cast<std::uint32_t>(score * 10000 + 0.5);
  char digits[6] = {static_cast<char>('0' + ten_thousandths / 10000), '.'};
  for (int i = 5, rest = ten_thousandths % 10000; i >= 2; --i, rest /= 10)
    digits[i] = static_cast<char>('0' + rest % 10);
  out.append(digits, 6);
}

}  // namespace

Junk pick_junk(double fraction, Rng& rng) {
  if (!rng.chance(fraction)) return Junk::none;
  const double r = rng.uniform();  // the rare kinds (bad lines for readers): 1/10 of the junk
  if (r < 0.225) return Junk::empty_tgt;
  if (r < 0.45) return Junk::empty_src;
  if (r < 0.675) return Junk::long_tgt;
  if (r < 0.9) return Junk::identical;
  if (r < 0.95) return Junk::no_tab;
  return Junk::bad_score;
}

void append_number(std::uint64_t value, std::string& out) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

void append_score_and_id(Junk junk, double quality, std::uint64_t seed, std::uint64_t index, Rng& rng,
                         std::string& out) {
  out += '\t';
  if (junk == Junk::bad_score) {
    out += "n/a";
  } else {
    append_score(quality, rng, out);
  }
  out += "\tsyn-";
  append_number(seed, out);
  out += '-';
  append_number(index, out);
}

}  // namespace tdcone::synth
