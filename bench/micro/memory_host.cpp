// What this machine's memory costs, printed beside the score bench's ratios:
// the engine waits on memory where the baseline waits on page faults, so the
// ratio moves with the host: how dear its page faults are, how slow its
// caches beyond L2. Prints one JSON object:
// - fault_ms_per_mib: first touch of fresh anonymous memory, on 2 MiB pages
//   (MADV_HUGEPAGE; the same when the kernel gives none), then on 2 MiB pages
//   again at once ("2m_just_freed"), then on 4 KiB pages. On a virtual
//   machine whose host takes free memory back, the first figure is what
//   memory freed long ago costs and the second what memory another process
//   has just freed costs; run it after the machine has idled (bench/score.sh's
//   SETTLE);
// - latency_ns: a dependent random walk over 1 MiB, 16 MiB and 256 MiB
//   (huge pages where given, so the TLB adds little);
// - stream_gb_s: one core summing 256 MiB.
// Usage: tdcone_bench_memory
#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <utility>

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Mapping {
  explicit Mapping(std::size_t bytes, bool huge) : bytes(bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<unsigned char*>(p);
    if (data != nullptr && huge) madvise(data, bytes, MADV_HUGEPAGE);
  }
  ~Mapping() {
    if (data != nullptr) munmap(data, bytes);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  std::size_t bytes;
  unsigned char* data;
};

double fault_ms_per_mib(bool huge) {
  constexpr std::size_t bytes = 512 * kMiB;
  Mapping memory(bytes, huge);
  if (memory.data == nullptr) return -1;
  const double start = now();
  for (std::size_t at = 0; at < bytes; at += 4096) memory.data[at] = 1;
  return (now() - start) * 1e3 / (bytes / kMiB);
}

std::uint64_t next_random(std::uint64_t& state) {  // xorshift64*
  state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
  return state * 0x2545F4914F6CDD1Du;
}

// ns a step of a walk through one random cycle over `bytes` (Sattolo's shuffle).
double latency_ns(std::size_t bytes) {
  Mapping memory(bytes, true);
  if (memory.data == nullptr) return -1;
  const std::size_t n = bytes / sizeof(std::uint64_t);
  auto* next = reinterpret_cast<std::uint64_t*>(memory.data);
  std::iota(next, next + n, std::uint64_t{0});
  std::uint64_t state = 0x9E3779B97F4A7C15u;
  for (std::size_t i = n - 1; i > 0; --i) std::swap(next[i], next[next_random(state) % i]);
  constexpr std::size_t kSteps = 10'000'000;
  std::uint64_t at = 0;
  const double start = now();
  for (std::size_t s = 0; s < kSteps; ++s) at = next[at];
  const double seconds = now() - start;
  return at == n ? -1 : seconds * 1e9 / kSteps;  // `at` is used: the walk stays
}

double stream_gb_s() {
  constexpr std::size_t bytes = 256 * kMiB;
  Mapping memory(bytes, true);
  if (memory.data == nullptr) return -1;
  std::memset(memory.data, 1, bytes);
  const auto* words = reinterpret_cast<const std::uint64_t*>(memory.data);
  std::uint64_t sum = 0;
  const double start = now();
  for (int pass = 0; pass < 3; ++pass)
    for (std::size_t i = 0; i < bytes / 8; ++i) sum += words[i];
  const double seconds = now() - start;
  return sum == 0 ? -1 : 3.0 * bytes / seconds / 1e9;
}

}  // namespace

int main() {
  // In this order: the first touch of 2 MiB pages must not reuse the others'.
  const double fault_huge = fault_ms_per_mib(true);
  const double fault_huge_just_freed = fault_ms_per_mib(true);
  const double fault_small = fault_ms_per_mib(false);
  const double l2 = latency_ns(1 * kMiB), l3 = latency_ns(16 * kMiB), dram = latency_ns(256 * kMiB);
  std::printf(
      "{\"fault_ms_per_mib\": {\"4k\": %.3f, \"2m\": %.3f, \"2m_just_freed\": %.3f}, \"latency_ns\": {\"1mib\": "
      "%.1f, \"16mib\": %.1f, \"256mib\": %.1f}, \"stream_gb_s\": %.2f}\n",
      fault_small, fault_huge, fault_huge_just_freed, l2, l3, dram, stream_gb_s());
}
