#pragma once
// The row table as the adding loop (PartitionedMatrix::add_placed_by) holds
// it: a row's new cells summed by table key (cell.hpp) in open addressing,
// weight 0 an empty slot. Shared by the adding loop and the table's growth
// (row_table.cpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tdcone/matrix/cell.hpp"

namespace tdcone::matrix::row_table {

// The row table's slot multiplier with several groups (2^32 / the golden ratio, odd).
constexpr std::uint32_t kSpreadingMultiplier = 0x9E3779B1u;

// A table key's first slot of the row table's `slots` (a power of two): the
// top bits of the key times the multiplier, by a multiplication by the slots
// and a constant shift (no shift by a variable, which would hold the
// shifter's register in the adding loop).
inline std::size_t home_slot(std::uint32_t table_key, std::uint32_t multiplier, std::uint64_t slots) {
  return static_cast<std::size_t>((std::uint64_t{table_key * multiplier} * slots) >> 32);
}

// The row table as the adding loop holds it.
struct RowTable {
  std::uint32_t* keys;
  std::uint64_t* weights;  // 0: an empty slot
  std::uint64_t slots;
};

// Adds weight(t) to the cell of each column columns[t] in the group of
// table key bits `table_group` (TableKeyFormat::group), then `weight(count)`
// to NULL's (column 0) if `with_null`; returns how many cells are new. A slot that is empty or holds the key
// takes the weight the same way (an empty one holds 0): whether the cell is
// new is a coin toss, and a branch on it would be mispredicted half the time.
// No wrapping: the overflow after the slots holds the longest run (use_table).
//
// A function of its own, not inlined, and compiled without GCC's induction
// variable rewriting: inside add_placed_by, and with it, GCC 12 kept the
// loop's invariants on the stack and walked the probe with extra pointers.
template <std::uint32_t kSlotMultiplier, class Weight>
#if defined(__GNUC__) && !defined(__clang__)
[[gnu::noinline, gnu::optimize("no-ivopts")]]
#else
[[gnu::noinline]]
#endif
std::size_t add_cells(const RowTable& table, std::uint32_t table_group, const std::uint32_t* columns, std::size_t count,
                      TableKeyFormat format, Weight weight, bool with_null) {
  std::uint32_t* const __restrict keys = table.keys;
  std::uint64_t* const __restrict weights = table.weights;
  const std::uint64_t slots = table.slots;
  // With one group (multiplier 1) the group is 0: one register fewer.
  const std::uint32_t group = kSlotMultiplier == 1 ? 0 : table_group;
  std::size_t new_cells = 0;
  const auto add = [&](std::uint32_t key, std::uint64_t w) {
    std::size_t at = home_slot(key, kSlotMultiplier, slots);
    std::uint64_t held = weights[at];
    // One branch: the minimum is 0 when the slot is empty or holds the key.
    if (std::min<std::uint64_t>(held, keys[at] ^ key) != 0) [[unlikely]] {
      do held = weights[++at];
      while (std::min<std::uint64_t>(held, keys[at] ^ key) != 0);
    }
    keys[at] = key;
    weights[at] = held + w;
    new_cells += held == 0;
  };
  for (std::size_t t = 0; t < count; ++t) add(format.key(columns[t], group), weight(t));
  if (with_null) add(format.key(0, group), weight(count));
  return new_cells;
}

}  // namespace tdcone::matrix::row_table
