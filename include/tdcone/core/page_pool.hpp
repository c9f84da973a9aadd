#pragma once
// Blocks for a structure that grows while another shrinks. Pages the process
// already holds cost nothing to touch again; fresh ones are zeroed by the
// kernel, and under a hypervisor backed by the host first (2.4-3.9 ms a MiB
// on the guests measured: a third of the score engine's align,
// docs/performance.md, twenty-eighth round). The word types the engine has
// aligned go while the alignment matrix grows: given to the matrix's pool
// instead of the system, their pages become its blocks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace tdcone {

class PagePool {
 public:
  PagePool() = default;
  PagePool(const PagePool&) = delete;
  PagePool& operator=(const PagePool&) = delete;
  /// Gives the free pages back (release_free()) and frees the chunks the
  /// pool took from the heap. Every block from it must be gone; the memory
  /// given stays its donors', who free it after.
  ~PagePool();

  /// Takes the 64-byte lines wholly inside [begin, end) as free memory: bytes
  /// the donor will never read again, nor free while the pool lives.
  void donate(void* begin, void* end);
  /// A block of `bytes`, 64-byte aligned: the smallest free run that holds
  /// it, else from a new chunk of the heap (at least kChunkBytes, which the
  /// next blocks share; its pages are touched only as they are used).
  void* allocate(std::size_t bytes);
  /// A block from allocate() of `bytes` keeps its first `kept` bytes; the
  /// rest is free again.
  void shrink(void* block, std::size_t bytes, std::size_t kept);
  /// Frees a block from allocate() of `bytes` (as shrunk).
  void free(void* block, std::size_t bytes);
  /// Returns the whole pages of the free runs to the system (what no block
  /// took stops counting as resident); they stay free in the pool.
  void release_free();

  /// The pool's unit: blocks and runs are whole lines.
  static constexpr std::size_t kLineBytes = 64;
  /// What a block of `bytes` takes from the pool: whole lines, at least one.
  static std::size_t block_size(std::size_t bytes) {
    return (std::max<std::size_t>(bytes, 1) + kLineBytes - 1) & ~(kLineBytes - 1);
  }
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
  std::uint64_t donated_bytes() const { return donated_bytes_; }
  std::uint64_t free_bytes() const { return free_bytes_; }

 private:
  using Runs = std::map<std::uintptr_t, std::uintptr_t>;  // begin -> end
  /// [begin, end) is free, one run with the free runs it touches.
  void add_free(std::uintptr_t begin, std::uintptr_t end);
  /// A free run is taken (its bytes no longer free).
  void take_run(Runs::iterator run);
  /// A free run leaves both indexes (add_free() joins it to another).
  void erase_run(Runs::iterator run);

  Runs free_;                                                 // runs that touch are one
  std::set<std::pair<std::size_t, std::uintptr_t>> by_size_;  // the free runs, (size, begin)
  std::vector<void*> chunks_;                                 // taken from the heap
  std::uint64_t donated_bytes_ = 0, free_bytes_ = 0;
};

}  // namespace tdcone
