#include "tdcone/core/page_pool.hpp"

#include <cstdlib>
#include <iterator>
#include <new>

#include "tdcone/core/memory_pages.hpp"

namespace tdcone {

namespace {

constexpr std::uintptr_t kLine = PagePool::kLineBytes;

std::uintptr_t line_up(std::uintptr_t at) { return (at + kLine - 1) & ~(kLine - 1); }
std::uintptr_t line_down(std::uintptr_t at) { return at & ~(kLine - 1); }

}  // namespace

PagePool::~PagePool() {
  release_free();
  for (void* chunk : chunks_) std::free(chunk);
}

void PagePool::donate(void* begin, void* end) {
  const std::uintptr_t first = line_up(reinterpret_cast<std::uintptr_t>(begin));
  const std::uintptr_t last = line_down(reinterpret_cast<std::uintptr_t>(end));
  if (last <= first) return;
  donated_bytes_ += last - first;
  add_free(first, last);
}

void* PagePool::allocate(std::size_t bytes) {
  const std::uintptr_t size = block_size(bytes);
  auto fit = by_size_.lower_bound({size, 0});
  if (fit == by_size_.end()) {
    const std::size_t chunk_bytes = std::max<std::size_t>(size + kLine, kChunkBytes);
    // Room first: a push_back that failed after the malloc would leak the chunk.
    if (chunks_.size() == chunks_.capacity()) chunks_.reserve(2 * chunks_.size() + 16);
    void* chunk = std::malloc(chunk_bytes);
    if (chunk == nullptr) throw std::bad_alloc();
    chunks_.push_back(chunk);
    const auto at = reinterpret_cast<std::uintptr_t>(chunk);
    add_free(line_up(at), line_down(at + chunk_bytes));
    fit = by_size_.lower_bound({size, 0});
  }
  const std::uintptr_t begin = fit->second;
  const auto run = free_.find(begin);
  const std::uintptr_t end = run->second;
  take_run(run);
  if (end - begin > size) add_free(begin + size, end);
  return reinterpret_cast<void*>(begin);
}

void PagePool::shrink(void* block, std::size_t bytes, std::size_t kept) {
  const auto begin = reinterpret_cast<std::uintptr_t>(block);
  if (block_size(kept) < block_size(bytes)) add_free(begin + block_size(kept), begin + block_size(bytes));
}

void PagePool::free(void* block, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(block);
  add_free(begin, begin + block_size(bytes));
}

void PagePool::release_free() {
  for (const auto& [begin, end] : free_) release_pages(reinterpret_cast<void*>(begin), reinterpret_cast<void*>(end));
}

void PagePool::add_free(std::uintptr_t begin, std::uintptr_t end) {
  free_bytes_ += end - begin;
  // The free runs that touch [begin, end) join it.
  if (const auto after = free_.find(end); after != free_.end()) {
    end = after->second;
    erase_run(after);
  }
  if (const auto next = free_.lower_bound(begin); next != free_.begin() && std::prev(next)->second == begin) {
    begin = std::prev(next)->first;
    erase_run(std::prev(next));
  }
  free_[begin] = end;
  by_size_.insert({end - begin, begin});
}

void PagePool::take_run(Runs::iterator run) {
  free_bytes_ -= run->second - run->first;
  erase_run(run);
}

void PagePool::erase_run(Runs::iterator run) {
  by_size_.erase({run->second - run->first, run->first});
  free_.erase(run);
}

}  // namespace tdcone
