#include "tdcone/text/tokenized_share.hpp"

#include <algorithm>
#include <iterator>

#include "tdcone/core/memory_pages.hpp"

namespace tdcone::text {

void TokenizedShare::shrink_to_fit() {
  // One vector at a time, before the matrix exists: the share is kept for the
  // whole run. One reserved close to its size (ShareBuilder::expect_bytes) stays.
  shrink_large_spares(flags, src_len, tgt_len, scores, type_start, type_count, types, type_counts, src_hash, tgt_hash,
                      label_ids, pair_keys, src_keys);
  ids.shrink_to_fit();
  diversity.shrink_to_fit();
}

std::uint64_t TokenizedShare::bytes() const {
  auto held = [](const auto&... vectors) { return ((std::uint64_t{vectors.capacity()} * sizeof(vectors[0])) + ...); };
  return ids.bytes() + diversity.bytes() + held(flags, src_len, tgt_len, scores, type_start, type_count, types,
                                                type_counts, src_hash, tgt_hash, label_ids, pair_keys, src_keys);
}

void TokenizedShare::release_types_before(std::size_t end) {
  types_released_ = true;
  if (end <= types_released_before_) return;
  // The first type still read: pair end's sides', which are the last read
  // on their side when a later pair repeats one.
  const std::uint64_t kept_from =
      end < size() ? std::min(type_start[2 * end], type_start[2 * end + 1]) : std::uint64_t{types.size()};
  const std::uint64_t from = types_released_to_, to = std::max(kept_from, from);
  released_bytes_ += (to - from) * (sizeof(WordId) + (type_counts.empty() ? 0 : sizeof(std::uint32_t))) +
                     2 * (end - types_released_before_) * (sizeof(std::uint64_t) + sizeof(std::uint32_t));
  release_pages(types.data() + from, types.data() + to);
  if (!type_counts.empty()) release_pages(type_counts.data() + from, type_counts.data() + to);
  // The starts and counts of pairs [0, end) go.
  release_pages(type_start.data() + 2 * types_released_before_, type_start.data() + 2 * end);
  release_pages(type_count.data() + 2 * types_released_before_, type_count.data() + 2 * end);
  types_released_before_ = end;
  types_released_to_ = to;
}

std::uint64_t TokenizedShare::side_types() const {
  std::uint64_t sum = 0;
  for (const std::uint32_t count : type_count) sum += count;
  return sum;
}

TokenizedShare TokenizedShare::copy_of_pairs(std::span<const std::size_t> pairs) const {
  TokenizedShare copy;
  copy.flags.reserve(pairs.size());
  copy.src_len.reserve(pairs.size());
  copy.tgt_len.reserve(pairs.size());
  copy.type_start.reserve(2 * pairs.size());
  copy.type_count.reserve(2 * pairs.size());
  std::uint64_t last_start[2] = {~std::uint64_t{0}, ~std::uint64_t{0}}, copied_start[2] = {0, 0};
  for (std::size_t i : pairs) {
    copy.flags.push_back(flags[i]);
    copy.src_len.push_back(src_len[i]);
    copy.tgt_len.push_back(tgt_len[i]);
    for (std::size_t side = 0; side < 2; ++side) {
      const std::size_t k = 2 * i + side;
      // A side that repeats the last one copied on its side stays one copy, as read.
      if (type_start[k] != last_start[side]) {
        const std::span<const WordId> types_of_side = span(k);
        last_start[side] = type_start[k];
        copied_start[side] = copy.types.size();
        copy.types.insert(copy.types.end(), types_of_side.begin(), types_of_side.end());
      }
      copy.type_start.push_back(copied_start[side]);
      copy.type_count.push_back(type_count[k]);
    }
  }
  return copy;
}

std::size_t TokenizedShare::file_of(std::size_t i) const {
  auto after = std::upper_bound(file_starts.begin(), file_starts.end(), i,
                                [](std::size_t index, const auto& start) { return index < start.first; });
  return std::prev(after)->second;
}

}  // namespace tdcone::text
