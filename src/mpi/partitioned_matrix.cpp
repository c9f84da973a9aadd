#include "tdcone/mpi/partitioned_matrix.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>

#include <malloc.h>
#include <utility>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "tdcone/core/error.hpp"

namespace tdcone::mpi {

namespace {

// At most 64 rows a bucket: with the rows of one rank spread over buckets by
// the low bits of their id, one round's new cells of a bucket and the
// sorting of them stay within a core's L2 cache.
constexpr unsigned kMaxRowBits = 6;

// 48 KiB of 12-byte slots (a key and its weight): a core's L1.
constexpr std::size_t kTableSlotsInL1 = 4096;

// The row table's slot multiplier with several groups (2^32 / the golden ratio, odd).
constexpr std::uint32_t kSpreadingMultiplier = 0x9E3779B1u;

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

// A table key's first slot of the row table's `slots` (a power of two): the
// top bits of the key times the multiplier, by a multiplication by the slots
// and a constant shift (no shift by a variable, which would hold the
// shifter's register in the adding loop).
std::size_t home_slot(std::uint32_t table_key, std::uint32_t multiplier, std::uint64_t slots) {
  return static_cast<std::size_t>((std::uint64_t{table_key * multiplier} * slots) >> 32);
}

// The row table as the adding loop holds it.
struct RowTable {
  std::uint32_t* keys;
  std::uint64_t* weights;  // 0: an empty slot
  std::uint64_t slots;
};

// Adds weight(t) to each key `group | columns[t] * multiplier` of the table,
// then `weight(count)` to key `group` itself (NULL's column) if `with_null`;
// returns how many cells are new. A slot that is empty or holds the key
// takes the weight the same way (an empty one holds 0): whether the cell is
// new is a coin toss, and a branch on it would be mispredicted half the time.
// No wrapping: the overflow after the slots holds the longest run (use_table).
//
// A function of its own, not inlined, and compiled without GCC's induction
// variable rewriting: inside add_placed_by, and with it, GCC 12 kept the
// loop's invariants on the stack and walked the probe with extra pointers
// (32 instructions an update where 26 do).
template <std::uint32_t kSlotMultiplier, class Weight>
#if defined(__GNUC__) && !defined(__clang__)
[[gnu::noinline, gnu::optimize("no-ivopts")]]
#else
[[gnu::noinline]]
#endif
std::size_t add_cells(const RowTable& table, std::uint32_t group, const std::uint32_t* columns, std::size_t count,
                      std::uint32_t multiplier, Weight weight, bool with_null) {
  std::uint32_t* const __restrict keys = table.keys;
  std::uint64_t* const __restrict weights = table.weights;
  const std::uint64_t slots = table.slots;
  // With one group (multiplier 1) the group is 0: one register fewer.
  const std::uint32_t lifted_group = kSlotMultiplier == 1 ? 0 : group;
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
  for (std::size_t t = 0; t < count; ++t) add(lifted_group | columns[t] * multiplier, weight(t));
  if (with_null) add(lifted_group, weight(count));
  return new_cells;
}

// Merges the held cells [held, held_end) with the new ones [fresh, fresh_end)
// of one row to `out` (`merged`: the block's cells), and returns the end of
// what it wrote. The held cells before each new one are copied eight at a
// time: the cells are sorted by key, and the key is on top, so those less
// than the new one's key on top of a zero weight are a prefix of the eight,
// counted without a branch, and all eight are copied (the ones past the run
// are written over next). A run's length is a coin toss (one to a dozen held
// cells a new one), and a branch a cell on it was mispredicted at every run's
// end. Room: the cells written are at most the held and new ones passed, so
// eight from `out` stay inside the block while eight held remain. No held
// cell is wide; a sum of the wide weight or more is appended to `wide` (its
// place to `wide_at`). Pointers in locals: in one loop with the held wide
// weights, GCC kept the merge's four cursors on the stack.
StoredCell* merge_run(const StoredCell* held, const StoredCell* held_end, const MatrixCell* fresh,
                      const MatrixCell* fresh_end, StoredCell* out, const StoredCell* merged, CellPacking packing,
                      std::vector<std::uint64_t>& wide, std::vector<std::uint32_t>& wide_at) {
  for (; fresh != fresh_end; ++fresh) {
    const std::uint64_t key_on_top = packing.on_top(fresh->key);
    while (held_end - held >= 8) {
      std::size_t less = 0;
      for (std::size_t k = 0; k < 8; ++k) less += held[k].bits < key_on_top ? 1 : 0;
      std::memcpy(out, held, 8 * sizeof(StoredCell));
      held += less;
      out += less;
      if (less < 8) break;
    }
    while (held != held_end && held->bits < key_on_top) *out++ = *held++;
    std::uint64_t weight = fresh->weight;
    if (held != held_end && packing.key_on_top(*held) == key_on_top) weight += packing.weight(*held++);
    if (weight >= packing.wide_weight) [[unlikely]] {
      wide.push_back(std::exchange(weight, packing.wide_weight));
      wide_at.push_back(static_cast<std::uint32_t>(out - merged));
    }
    *out++ = {key_on_top | weight};
  }
  // The rest in one run (an empty bucket has no block: no memcpy from null).
  if (held != held_end) std::memcpy(out, held, static_cast<std::size_t>(held_end - held) * sizeof(StoredCell));
  return out + (held_end - held);
}

// What a block takes: from the heap its usable bytes and the chunk header.
template <class Block>
std::uint64_t block_bytes(const Block& block) {
  if (!block) return 0;
  const auto& owner = block.get_deleter();
  return owner.pool != nullptr ? PagePool::block_size(owner.bytes) : malloc_usable_size(block.get()) + sizeof(std::size_t);
}

}  // namespace

WeightScale::WeightScale(std::uint64_t pairs)
    : fraction_bits_(62 - static_cast<int>(std::bit_width(std::max<std::uint64_t>(pairs, 1)))),
      unit_(std::ldexp(1.0, -fraction_bits_)) {}

std::uint64_t WeightScale::fixed(double weight) const {
  const auto units = static_cast<std::uint64_t>(std::llround(std::ldexp(weight, fraction_bits_)));
  return std::max<std::uint64_t>(units, 1);
}

MatrixLayout MatrixLayout::make(const GlobalVocabulary& vocabulary, int rank, std::size_t groups) {
  MatrixLayout layout;
  layout.first_row = rank == 0 ? 0 : vocabulary.first_id[rank];
  layout.rows = vocabulary.first_id[rank + 1] - layout.first_row;
  layout.column_bits = std::max(1, static_cast<int>(std::bit_width(vocabulary.first_id.back() - 1)));
  // Fibonacci hashing on the column's bits: the golden ratio's fraction of
  // 2^column_bits spreads ids that are near each other (the frequent words
  // have the lowest) over the top bits of their codes, where the row table
  // takes a key's slot from. Odd, so the code is a bijection.
  const double golden_fraction = 0.6180339887498949;
  layout.code_multiplier = static_cast<std::uint32_t>(std::ldexp(golden_fraction, static_cast<int>(layout.column_bits))) | 1u;
  layout.code_inverse = layout.code_multiplier;  // right in 3 bits; each step doubles them
  for (int step = 0; step < 4; ++step) layout.code_inverse *= 2u - layout.code_multiplier * layout.code_inverse;
  layout = layout.with_groups(groups);
  const int free_bits = 32 - static_cast<int>(layout.column_bits + layout.group_bits);
  layout.row_bits = static_cast<unsigned>(std::min<int>(free_bits, kMaxRowBits));
  const std::uint32_t rows_per_bucket = std::uint32_t{1} << layout.row_bits;
  layout.buckets = std::bit_ceil(std::max<std::uint32_t>(1, (layout.rows + rows_per_bucket - 1) / rows_per_bucket));
  return layout;
}

MatrixLayout MatrixLayout::with_groups(std::size_t groups) const {
  MatrixLayout layout = *this;
  layout.group_bits = groups > 1 ? static_cast<unsigned>(std::bit_width(groups - 1)) : 0;
  if (layout.column_bits + layout.group_bits + row_bits > 32)
    throw UsageError(cat("too many subsets for the vocabulary: ", groups, " pair groups (shards, threshold bands) and ",
                         (std::uint64_t{1} << column_bits), " word ids do not fit the 32-bit cell key; use at most ",
                         (std::uint64_t{1} << (32 - column_bits - row_bits)), " shards"));
  return layout;
}

PartitionedMatrix::PartitionedMatrix(MatrixLayout layout, WeightScale scale)
    : layout_(layout),
      scale_(scale),
      buckets_(layout.buckets),
      row_lift_(32 - layout.column_bits - layout.group_bits),
      packing_(CellPacking::for_key_bits(layout.column_bits + layout.group_bits)),
      header_words_(std::max<std::size_t>(std::size_t{1} << layout.row_bits, 2)) {
  for (std::uint32_t n = 1; n < share_of_.size(); ++n) share_of_[n] = scale_.fixed(1.0 / n);
}

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
  unsigned lift;  // the table keys' shift above the cells' keys
  std::uint32_t row_base;
  MatrixCell* out;
  MatrixCell* end;

  [[gnu::always_inline]] void take(std::size_t at) {
    const MatrixCell cell{row_base | (keys[at] >> lift), std::exchange(weights[at], 0)};
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
  const CellTaker<kInKeyOrder> taker{table_keys_.data(), table_weights_.data(), row_lift_, row_base, out, out};
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
    const std::uint32_t table_key = cell.key << row_lift_;
    std::size_t at = home_slot(table_key, slot_multiplier(), table_slots_);
    while (table_weights_[at] != 0) ++at;
    table_keys_[at] = table_key;
    table_weights_[at] = cell.weight;
  }
}

std::size_t PartitionedMatrix::merge_cells(const Bucket& bucket, std::span<const MatrixCell> fresh, std::uint32_t* block) {
  // Row by row (a stored key has no row bits); within a row, the runs
  // between the held wide cells (a few a bucket) by merge_run(): each wide
  // cell then takes its new cell, if any, and keeps its place in the list.
  const CellPacking packing = packing_;  // a copy: the stores to the block could be to a member
  const bool any_held = bucket.size > 0;
  const StoredCell* const cells = any_held ? cells_of(bucket) : nullptr;
  const std::uint32_t* const held_ends = any_held ? row_ends(bucket) : nullptr;
  const WideList held_wide = any_held ? wide_list(bucket) : WideList{};
  std::uint32_t* const ends = block;
  auto* const merged = reinterpret_cast<StoredCell*>(block + header_words_);
  const StoredCell* held = cells;  // the first not yet merged
  const MatrixCell* next = fresh.data();
  StoredCell* out = merged;
  std::size_t w = 0;
  const std::size_t rows = std::size_t{1} << layout_.row_bits;
  for (std::size_t r = 0; r < rows; ++r) {
    const StoredCell* const held_end = cells + (any_held ? held_ends[r] : 0);
    const MatrixCell* const fresh_end = fresh.data() + fresh_row_end_[r];
    for (; w < bucket.wide && held_wide.place(w) < static_cast<std::size_t>(held_end - cells); ++w) {
      const StoredCell* wide_cell = cells + held_wide.place(w);
      const std::uint64_t key_on_top = packing.key_on_top(*wide_cell);
      const MatrixCell* before = std::lower_bound(next, fresh_end, key_on_top, [packing](const MatrixCell& cell, std::uint64_t on_top) {
        return packing.on_top(cell.key) < on_top;
      });
      out = merge_run(held, wide_cell, next, before, out, merged, packing, wide_, wide_at_);
      next = before;
      std::uint64_t weight = held_wide.weight(w);
      if (next != fresh_end && packing.on_top(next->key) == key_on_top) weight += (next++)->weight;
      wide_.push_back(weight);
      wide_at_.push_back(static_cast<std::uint32_t>(out - merged));
      *out++ = *wide_cell;  // its weight the wide one: the list's
      held = wide_cell + 1;
    }
    out = merge_run(held, held_end, next, fresh_end, out, merged, packing, wide_, wide_at_);
    held = held_end;
    next = fresh_end;
    ends[r] = static_cast<std::uint32_t>(out - merged);
  }
  return static_cast<std::size_t>(out - merged);
}

PartitionedMatrix::Block PartitionedMatrix::new_block(std::size_t bytes) {
  if (pool_ != nullptr) return Block(static_cast<std::uint32_t*>(pool_->allocate(bytes)), FreeBlock{pool_, bytes});
  auto* block = static_cast<std::uint32_t*>(std::malloc(bytes));
  if (block == nullptr) throw std::bad_alloc();
  return Block(block);
}

void PartitionedMatrix::resize_block(Block& block, std::size_t bytes, std::size_t kept) {
  FreeBlock& owner = block.get_deleter();
  if (owner.pool == nullptr) {
    auto* resized = static_cast<std::uint32_t*>(std::realloc(block.get(), bytes));
    if (resized == nullptr) throw std::bad_alloc();  // `block` still holds the old one, which goes with it
    (void)block.release();
    block.reset(resized);
  } else if (PagePool::block_size(bytes) <= PagePool::block_size(owner.bytes)) {
    owner.pool->shrink(block.get(), owner.bytes, bytes);
    owner.bytes = bytes;
  } else {  // more wide weights than the cells they replaced: a larger block
    Block larger = new_block(bytes);
    std::memcpy(larger.get(), block.get(), kept);
    block = std::move(larger);
  }
}

void PartitionedMatrix::merge_into(Bucket& bucket, std::span<const MatrixCell> fresh) {
  // One pass into a new block (a round adds about one cell for every two or
  // three held), then the block is cut to size in place with the wide
  // weights and their places after the cells.
  const std::size_t n_held = bucket.size, n_fresh = fresh.size();
  const std::size_t header_bytes = header_words_ * sizeof(std::uint32_t);
  // Room for the held wide weights too: a bucket of many wide cells that
  // merges few new ones away needs more than its cells (a larger block and a
  // copy of the cells otherwise, at 100k pairs a fifth of all copying).
  const std::size_t most_bytes = header_bytes + (n_held + n_fresh) * sizeof(StoredCell) + bucket.wide * kWideBytes;
  Block block = new_block(most_bytes);
  merge_peak_ = std::max<std::uint64_t>(merge_peak_, block_bytes(block));
  wide_.clear();
  wide_at_.clear();
  const std::size_t out = merge_cells(bucket, fresh, block.get());
  const std::size_t cell_bytes = header_bytes + out * sizeof(StoredCell);
  const std::size_t bytes = cell_bytes + wide_.size() * kWideBytes;
  if (bytes != most_bytes) resize_block(block, bytes, cell_bytes);
  if (!wide_.empty()) {
    auto* tail = reinterpret_cast<unsigned char*>(block.get()) + cell_bytes;
    std::memcpy(tail, wide_.data(), wide_.size() * sizeof(std::uint64_t));
    std::memcpy(tail + wide_.size() * sizeof(std::uint64_t), wide_at_.data(), wide_at_.size() * sizeof(std::uint32_t));
  }
  block_bytes_ += block_bytes(block) - block_bytes(bucket.block);
  bucket.block = std::move(block);
  nnz_ += out - n_held;
  bucket.size = out;
  bucket.wide = wide_.size();
}

template <class ForEachJob>
void PartitionedMatrix::place_jobs(ForEachJob for_each_job) {
  // Counted at row_start_[p + 2] and filled through row_start_[p + 1], which
  // then holds where place p + 1 starts: one array for counts and starts.
  const std::size_t place_count = std::size_t{layout_.buckets} << layout_.row_bits;
  row_start_.assign(place_count + 2, 0);
  const Places place = places();
  std::uint32_t* const starts = row_start_.data();
  for_each_job([place, starts](std::uint32_t row, std::uint32_t, std::uint32_t) { ++starts[place(row) + 2]; });
  for (std::size_t p = 2; p < place_count + 2; ++p) row_start_[p] += row_start_[p - 1];
  // Exactly as many (resize() would double them, and the pages with them);
  // anew for a round less than half as large, so its pages go too.
  const std::size_t jobs = row_start_[place_count + 1];
  if (jobs_.capacity() < jobs || jobs_.capacity() / 2 > jobs) {
    std::vector<PlacedJob>().swap(jobs_);
    jobs_.reserve(jobs);
  }
  jobs_.resize(jobs);
  PlacedJob* const placed = jobs_.data();
  for_each_job([place, starts, placed](std::uint32_t row, std::uint32_t message, std::uint32_t index) {
    placed[starts[place(row) + 1]++] = {message, index};
  });
}

void PartitionedMatrix::add(std::span<const std::uint32_t> words) {
  // The jobs by row straight from the messages: a row's new cells are summed
  // in a table that stays in cache, and a bucket's are sorted and merged in one go.
  place_jobs([words](auto visit) {
    for (std::size_t at = 0; at < words.size(); at += pair_rows::length(&words[at])) {
      const std::uint32_t* header = &words[at];
      const std::uint32_t n_rows = header[2] + header[3];
      const std::uint32_t* rows = header + pair_rows::kHeaderWords + header[1];
      const auto message = static_cast<std::uint32_t>(at);
      for (std::uint32_t k = 0; k < n_rows; ++k) visit(rows[k], message, k);
      if (header[4] & pair_rows::null_row) visit(0, message, n_rows);  // NULL: global id 0
    }
  });
  add_placed(words);
}

void PartitionedMatrix::add(std::span<const std::uint32_t> words, std::span<const RowJob> jobs) {
  place_jobs([jobs](auto visit) {
    for (const RowJob& job : jobs) visit(job.row, job.message, job.index);
  });
  add_placed(words);
}

void PartitionedMatrix::add_placed(std::span<const std::uint32_t> words) {
  // The multiplier a constant in the loops: with one group no multiplication
  // stands between a column and the load of its slot.
  if (slot_multiplier() == 1)
    add_placed_by<1>(words);
  else
    add_placed_by<kSpreadingMultiplier>(words);
}

template <std::uint32_t kSlotMultiplier>
void PartitionedMatrix::add_placed_by(std::span<const std::uint32_t> words) {
  const std::size_t place_count = std::size_t{layout_.buckets} << layout_.row_bits;
  const std::size_t rows_per_bucket = std::size_t{1} << layout_.row_bits;
  const unsigned row_shift = layout_.column_bits + layout_.group_bits;
  const std::uint64_t one = scale_.fixed(1.0);
  constexpr std::size_t kPrefetchAhead = 8;  // jobs: their messages are scattered over the receive buffer
  std::uint64_t updates = 0;
  // A bucket's new cells are fresh_[0, n); the current row's, m of them, are
  // summed in the table (table keys and weights side by side; weight 0 is
  // empty, as no weight is 0: WeightScale::fixed) and join them when the row ends.
  // Locals, not members: a member would be loaded again after every store
  // through a pointer (it might be the one written).
  std::size_t n = 0, m = 0;
  RowTable table{};
  auto take_table = [&] { table = {table_keys_.data(), table_weights_.data(), table_slots_}; };
  // Room in the table, at most half full, for `more` new cells of the row.
  auto make_room = [&](std::size_t more) {
    if ((m + more) * 2 > table.slots) {
      grow_table(m + more);
      take_table();
    }
  };
  const std::uint32_t lifted_multiplier = layout_.lifted_code_multiplier();  // a column's code in the top bits
  auto spread = [&](std::uint32_t group, const std::uint32_t* columns, std::uint32_t count, auto weight, bool with_null) {
    return add_cells<kSlotMultiplier>(table, group, columns, count, lifted_multiplier, weight, with_null);
  };
  const auto constant = [](std::uint64_t w) { return [w](std::size_t) { return w; }; };
  // In locals: the calls in the job loop would have them loaded again every job.
  const PlacedJob* const jobs = jobs_.data();
  const std::size_t job_count = jobs_.size();
  const unsigned row_lift = row_lift_;
  for (std::size_t r = 0; r < place_count; ++r) {
    const std::uint32_t first = row_start_[r], end = row_start_[r + 1];
    if (first < end) {
      // About eight new cells a job, at most a table that fits L1; rows with
      // more grow it. Not larger: the lines a row touches spread with the slots.
      use_table(std::bit_ceil(std::clamp<std::size_t>(std::size_t{16} * (end - first), 16, kTableSlotsInL1)));
      take_table();
      const std::size_t in_bucket = r & (rows_per_bucket - 1);
      const std::uint32_t row = layout_.first_row + static_cast<std::uint32_t>(in_bucket * layout_.buckets + (r >> layout_.row_bits));
      const auto base = static_cast<std::uint32_t>(in_bucket << row_shift);  // the row's bits of its keys
      for (std::uint32_t k = first; k < end; ++k) {
        if (k + kPrefetchAhead < job_count) {  // the header and y\x after it: often two cache lines
          const std::uint32_t* ahead = words.data() + jobs[k + kPrefetchAhead].message;
          __builtin_prefetch(ahead);
          __builtin_prefetch(ahead + 15);
        }
        const PlacedJob& job = jobs[k];
        const std::uint32_t* header = words.data() + job.message;
        const std::uint32_t group = header[0], n_yo = header[1], n_same = header[2], n_rows = header[3], flags = header[4];
        const std::uint32_t* yo = header + pair_rows::kHeaderWords;
        const std::uint32_t table_group = group << row_lift;  // under the column code
        make_room(std::size_t{n_yo} + 1);
        if (job.index < n_same) {  // rule 1
          m += spread(table_group, &row, 1, constant(one), false);
          ++updates;
        } else if (job.index == n_same + n_rows) {  // rule 3
          m += spread(table_group, yo, n_yo, constant(share_of(n_yo)), false);
          updates += n_yo;
        } else if (flags & pair_rows::weighted) {  // rule 2, static
          const std::uint32_t* w = yo + n_yo + n_same + n_rows + std::size_t{2} * (job.index - n_same) * n_yo;
          if (n_yo == 0) m += spread(table_group, yo, 0, constant(one), true), ++updates;  // NULL takes it all
          m += spread(table_group, yo, n_yo, [w](std::size_t t) { return w[2 * t] | (std::uint64_t{w[2 * t + 1]} << 32); }, false);
          updates += n_yo;
        } else {  // rule 2, uniform: y\x and NULL (column 0)
          m += spread(table_group, yo, n_yo, constant(share_of(n_yo + 1)), true);
          updates += n_yo + 1;
        }
      }
      // The row's cells join the bucket's in key order, leaving the table
      // empty for the next row: the rows of a bucket come in key order.
      if (n + m > fresh_.size()) fresh_.resize(std::max(n + m, 2 * fresh_.size()));
      n += take_sorted_row(fresh_.data() + n, base);
      m = 0;
    }
    fresh_row_end_[r & (rows_per_bucket - 1)] = static_cast<std::uint32_t>(n);
    // The bucket's last row: its new cells go in.
    if ((r + 1) % rows_per_bucket == 0 && n > 0) {
      merge_into(buckets_[r >> layout_.row_bits], {fresh_.data(), n});
      n = 0;
    }
  }
  cell_updates_ += updates;
}

std::uint64_t PartitionedMatrix::bytes() const {
  return block_bytes_ + merge_peak_ + (fresh_.capacity() + scratch_.capacity()) * sizeof(MatrixCell) + wide_.capacity() * 8 + wide_at_.capacity() * 4 +
         jobs_.capacity() * sizeof(PlacedJob) + table_keys_.capacity() * 4 + table_weights_.capacity() * 8 + (row_start_.capacity() + count_.capacity()) * 4 +
         buckets_.capacity() * sizeof(Bucket);
}

void PartitionedMatrix::finish() {
  // The round scratch goes; the buckets are the sorted rows already.
  // Swapped with empty vectors: `v = {}` would assign an empty list and keep the capacity.
  for (auto* scratch : {&fresh_, &scratch_}) std::vector<MatrixCell>().swap(*scratch);
  std::vector<std::uint64_t>().swap(wide_);
  std::vector<std::uint32_t>().swap(wide_at_);
  std::vector<std::uint32_t>().swap(table_keys_);
  std::vector<std::uint64_t>().swap(table_weights_);
  for (auto* scratch : {&row_start_, &count_}) std::vector<std::uint32_t>().swap(*scratch);
  std::vector<PlacedJob>().swap(jobs_);
  merge_peak_ = 0;
}

bool PartitionedMatrix::RowCursor::next() {
  // The next row with cells: its bucket's row ends say where its cells are.
  const std::size_t rows = std::size_t{1} << m_.layout_.row_bits;
  for (; bucket_ < m_.buckets_.size(); ++bucket_, next_row_ = 0, next_wide_ = 0) {
    const Bucket& bucket = m_.buckets_[bucket_];
    if (bucket.size == 0) continue;
    const std::uint32_t* ends = m_.row_ends(bucket);
    for (; next_row_ < rows; ++next_row_) {
      const std::size_t start = next_row_ == 0 ? 0 : ends[next_row_ - 1], end = ends[next_row_];
      if (start == end) continue;
      bucket_wide_ = m_.wide_list(bucket);
      row_ = m_.cells_of(bucket) + start;
      count_ = end - start;
      copied_ = false;
      first_wide_ = next_wide_;
      while (next_wide_ < bucket.wide && bucket_wide_.place(next_wide_) < end) ++next_wide_;
      position_ = (std::uint64_t{bucket_} << m_.layout_.row_bits) | next_row_;
      row_id_ = m_.layout_.first_row + static_cast<std::uint32_t>(next_row_ * m_.layout_.buckets + bucket_);
      key_base_ = static_cast<std::uint32_t>(next_row_ << (m_.layout_.column_bits + m_.layout_.group_bits));
      ++next_row_;
      return true;
    }
  }
  return false;
}

std::span<const MatrixCell> PartitionedMatrix::RowCursor::cells() const {
  if (!copied_) {
    if (cells_.size() < count_) cells_.resize(count_);
    MatrixCell* out = cells_.data();
    for_each_cell([&out](std::uint32_t key, std::uint64_t weight) { *out++ = {key, weight}; });
    copied_ = true;
  }
  return {cells_.data(), count_};
}

}  // namespace tdcone::mpi
