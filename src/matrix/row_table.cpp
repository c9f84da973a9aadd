// The row table of PartitionedMatrix: its slots, its growth, and taking a
// row's cells out of it in key order (by AVX2 where the processor has it).
#include <algorithm>
#include <bit>
#include <span>
#include <utility>
#include <vector>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "row_table.hpp"
#include "tdcone/matrix/partitioned_matrix.hpp"

namespace tdcone::matrix {

using row_table::home_slot;
using row_table::kSpreadingMultiplier;

namespace {

// Sorts cells of distinct keys by key: least significant digit first, over
// the bits in which the keys differ, with digits no wider than the cells are
// many (a count table that costs less than its cells and fits L1).
void sort_cells(std::span<MatrixCell> cells, std::vector<MatrixCell>& scratch, std::vector<std::uint32_t>& count) {
  if (cells.size() < 64) {
    std::sort(cells.begin(), cells.end(), [](const MatrixCell& a, const MatrixCell& b) { return a.key < b.key; });
    return;
  }
  std::uint32_t any = 0, all = ~0u;
  for (const MatrixCell& c : cells) any |= c.key, all &= c.key;
  const unsigned bits = std::bit_width(any ^ all);
  const unsigned widest = std::clamp<unsigned>(std::bit_width(cells.size()), 6, 12);
  const unsigned passes = (bits + widest - 1) / widest;
  if (passes == 0) return;
  const unsigned digit_bits = (bits + passes - 1) / passes;
  const std::uint32_t mask = (1u << digit_bits) - 1;
  if (scratch.size() < cells.size()) scratch.resize(cells.size());
  MatrixCell *from = cells.data(), *to = scratch.data();
  for (unsigned d = 0; d < passes; ++d) {
    const unsigned shift = d * digit_bits;
    count.assign(std::size_t{mask} + 1, 0);
    for (std::size_t i = 0; i < cells.size(); ++i) ++count[(from[i].key >> shift) & mask];
    std::uint32_t sum = 0;
    for (auto& n : count) sum += std::exchange(n, sum);
    for (std::size_t i = 0; i < cells.size(); ++i) to[count[(from[i].key >> shift) & mask]++] = from[i];
    std::swap(from, to);
  }
  if (from != cells.data()) std::copy_n(from, cells.size(), cells.data());
}

}  // namespace

std::uint32_t PartitionedMatrix::slot_multiplier() const { return layout_.group_bits == 0 ? 1u : kSpreadingMultiplier; }

void PartitionedMatrix::use_table(std::size_t slots) {
  table_slots_ = slots;
  // At most slots / 2 cells: a probe from the last slot runs past at most
  // that many. At least 64: take_row() reads 64 slots from the table's end.
  const std::size_t with_overflow = slots + std::max<std::size_t>(slots / 2, 64);
  if (table_weights_.size() < with_overflow) {  // new slots are empty
    table_keys_.resize(with_overflow), table_weights_.resize(with_overflow);
  }
}

namespace {

// The row table's cells, found by their weights (an empty slot's is 0) in
// the order of their slots. The full slots after the table's `slots` are
// one run from its end (a probe runs on past full slots only, and none
// empties during a row), so the walk stops at the first empty one there;
// the table is at most half full, so there is one before the overflow ends.
//
// The cell of full slot `at` goes to `end`, its slot emptied. `kInKeyOrder`:
// in key order, but for a cell that a probe put after a larger key (few, and
// near): it moves back to its place as it is taken.
template <bool kInKeyOrder>
struct CellTaker {
  const std::uint32_t* __restrict keys;
  std::uint64_t* __restrict weights;
  TableKeyFormat format;
  std::uint32_t row_base;  // the row's bits of its keys
  MatrixCell* out;
  MatrixCell* end;

  [[gnu::always_inline]] void take(std::size_t at) {
    const MatrixCell cell{format.key_of(keys[at], row_base), std::exchange(weights[at], 0)};
    MatrixCell* place = end++;
    if constexpr (kInKeyOrder)
      for (; place != out && place[-1].key > cell.key; --place) *place = place[-1];
    *place = cell;
  }
  std::size_t taken() const { return static_cast<std::size_t>(end - out); }
};

template <bool kInKeyOrder>
std::size_t take_cells_scalar(CellTaker<kInKeyOrder> taker, std::size_t slots) {
  for (std::size_t at = 0; at < slots || taker.weights[at] != 0; ++at)
    if (taker.weights[at] != 0) taker.take(at);
  return taker.taken();
}

#ifdef __x86_64__
// The full ones of 64 slots from `weights`, a bit each, without a branch.
[[gnu::target("avx2"), gnu::always_inline]] inline std::uint64_t full_of_64(const std::uint64_t* weights) {
  const __m256i zero = _mm256_setzero_si256();
  std::uint64_t empty = 0;
  for (unsigned k = 0; k < 16; ++k) {
    const __m256i four = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(weights + 4 * k));
    const auto empty_of_four = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(four, zero)));
    empty |= static_cast<std::uint64_t>(empty_of_four) << (4 * k);
  }
  return ~empty;
}

// 64 slots a step, their full ones found by 16 compares: cheaper than a bit
// a slot kept by the adding loop, which cost it five instructions an update
// (the slots looked at are about 1.4 an update). Steps of eight slots took
// fewer instructions still, but the loop over each step's few cells was
// mispredicted at its end, eight times as often.
template <bool kInKeyOrder>
[[gnu::target("avx2")]] std::size_t take_cells_avx2(CellTaker<kInKeyOrder> taker, std::size_t slots) {
  const auto take_all = [&taker](std::size_t base, std::uint64_t full) {
    for (; full != 0; full &= full - 1) taker.take(base + static_cast<std::size_t>(std::countr_zero(full)));
  };
  const std::uint64_t in_table = slots < 64 ? (std::uint64_t{1} << slots) - 1 : ~std::uint64_t{0};
  std::size_t base = 0;
  for (; base < slots; base += 64) take_all(base, full_of_64(taker.weights + base) & in_table);
  for (base = slots;; base += 64) {  // the overflow, to its first empty slot
    const std::uint64_t full = full_of_64(taker.weights + base), empty = ~full;
    take_all(base, full & ((empty & -empty) - 1));
    if (empty != 0) break;
  }
  return taker.taken();
}

const bool kCpuHasAvx2 = __builtin_cpu_supports("avx2");
#else
constexpr bool kCpuHasAvx2 = false;
#endif
bool find_by_avx2 = kCpuHasAvx2;

}  // namespace

bool PartitionedMatrix::find_cells_by_avx2(bool on) { return std::exchange(find_by_avx2, on && kCpuHasAvx2); }

template <bool kInKeyOrder>
std::size_t PartitionedMatrix::take_row(MatrixCell* out, std::uint32_t row_base) {
  const CellTaker<kInKeyOrder> taker{table_keys_.data(), table_weights_.data(), table_format_, row_base, out, out};
#ifdef __x86_64__
  if (find_by_avx2) return take_cells_avx2(taker, table_slots_);
#endif
  return take_cells_scalar(taker, table_slots_);
}

std::size_t PartitionedMatrix::take_sorted_row(MatrixCell* out, std::uint32_t row_base) {
  if (slot_multiplier() == 1) return take_row<true>(out, row_base);
  const std::size_t n = take_row<false>(out, row_base);  // the slots are in hash order
  sort_cells({out, n}, scratch_, count_);
  return n;
}

void PartitionedMatrix::grow_table(std::size_t wanted) {
  std::size_t slots = table_slots_;
  while (wanted * 2 > slots) slots *= 2;
  if (scratch_.size() < wanted) scratch_.resize(wanted);
  const std::size_t cells = take_row<false>(scratch_.data(), 0);
  use_table(slots);
  for (std::size_t i = 0; i < cells; ++i) {
    const MatrixCell cell = scratch_[i];
    const std::uint32_t table_key = table_format_.of_key(cell.key);
    std::size_t at = home_slot(table_key, slot_multiplier(), table_slots_);
    while (table_weights_[at] != 0) ++at;
    table_keys_[at] = table_key;
    table_weights_[at] = cell.weight;
  }
}

}  // namespace tdcone::matrix
