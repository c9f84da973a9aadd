// Merging a bucket's new cells of a round into its stored block: the held
// and new cells of each row in key order, the wide weights after the cells.
#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "tdcone/matrix/partitioned_matrix.hpp"

namespace tdcone::matrix {

namespace {

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
                      const MatrixCell* fresh_end, StoredCell* out, const StoredCell* merged, StoredCellFormat format,
                      std::vector<std::uint64_t>& wide, std::vector<std::uint32_t>& wide_at) {
  for (; fresh != fresh_end; ++fresh) {
    const std::uint64_t key_on_top = format.on_top(fresh->key);
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
    if (held != held_end && format.key_on_top(*held) == key_on_top) weight += format.weight(*held++);
    if (weight >= format.wide_weight) [[unlikely]] {
      wide.push_back(std::exchange(weight, format.wide_weight));
      wide_at.push_back(static_cast<std::uint32_t>(out - merged));
    }
    *out++ = StoredCellFormat::pack(key_on_top, weight);
  }
  // The rest in one run (an empty bucket has no block: no memcpy from null).
  if (held != held_end) std::memcpy(out, held, static_cast<std::size_t>(held_end - held) * sizeof(StoredCell));
  return out + (held_end - held);
}

// What a block takes from the heap: its usable bytes and the chunk header.
template <class Block>
std::uint64_t block_bytes(const Block& block) {
  return block ? malloc_usable_size(block.get()) + sizeof(std::size_t) : 0;
}

}  // namespace

std::size_t PartitionedMatrix::merge_cells(const Bucket& bucket, std::span<const MatrixCell> fresh, std::uint32_t* block) {
  // Row by row (a stored key has no row bits); within a row, the runs
  // between the held wide cells (a few a bucket) by merge_run(): each wide
  // cell then takes its new cell, if any, and keeps its place in the list.
  const StoredCellFormat format = stored_format_;  // a copy: the stores to the block could be to a member
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
      const std::uint64_t key_on_top = format.key_on_top(*wide_cell);
      const MatrixCell* before = std::lower_bound(next, fresh_end, key_on_top, [format](const MatrixCell& cell, std::uint64_t on_top) {
        return format.on_top(cell.key) < on_top;
      });
      out = merge_run(held, wide_cell, next, before, out, merged, format, wide_, wide_at_);
      next = before;
      std::uint64_t weight = held_wide.weight(w);
      if (next != fresh_end && format.on_top(next->key) == key_on_top) weight += (next++)->weight;
      wide_.push_back(weight);
      wide_at_.push_back(static_cast<std::uint32_t>(out - merged));
      *out++ = *wide_cell;  // its weight the wide one: the list's
      held = wide_cell + 1;
    }
    out = merge_run(held, held_end, next, fresh_end, out, merged, format, wide_, wide_at_);
    held = held_end;
    next = fresh_end;
    ends[r] = static_cast<std::uint32_t>(out - merged);
  }
  return static_cast<std::size_t>(out - merged);
}

PartitionedMatrix::Block PartitionedMatrix::new_block(std::size_t bytes) {
  auto* block = static_cast<std::uint32_t*>(std::malloc(bytes));
  if (block == nullptr) throw std::bad_alloc();
  return Block(block);
}

void PartitionedMatrix::resize_block(Block& block, std::size_t bytes) {
  auto* resized = static_cast<std::uint32_t*>(std::realloc(block.get(), bytes));
  if (resized == nullptr) throw std::bad_alloc();  // `block` still holds the old one, which goes with it
  (void)block.release();
  block.reset(resized);
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
  if (bytes != most_bytes) resize_block(block, bytes);
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

}  // namespace tdcone::matrix
