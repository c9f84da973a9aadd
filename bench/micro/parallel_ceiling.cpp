// The parallel ceiling of this machine for compute-bound work: the same
// integer-mixing loop timed alone and as two (or N) simultaneous copies, so
// a rank-speedup target can be judged against what the cores (shared caches,
// SMT siblings, a noisy VM) can give at all. Prints one JSON object:
// seconds alone, seconds of N copies, and the ceiling = N * alone / together.
// Usage: tdcone_bench_ceiling [COPIES=2] [ITERATIONS=400000000]
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

// Dependent multiply-xorshift chains: no memory traffic, all ALU latency.
std::uint64_t spin(std::uint64_t iterations) {
  std::uint64_t a = 0x9E3779B97F4A7C15u, b = 0xD1B54A32D192ED03u;
  for (std::uint64_t i = 0; i < iterations; ++i) {
    a = (a ^ (a >> 29)) * 0xBF58476D1CE4E5B9u;
    b = (b ^ (b >> 31)) * 0x94D049BB133111EBu + i;
  }
  return a ^ b;
}

double seconds_of(int copies, std::uint64_t iterations) {
  const auto start = std::chrono::steady_clock::now();
  for (int c = 0; c < copies; ++c) {
    if (fork() == 0) _exit(spin(iterations) == 42 ? 1 : 0);  // the result is used: the loop stays
  }
  for (int c = 0; c < copies; ++c) wait(nullptr);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int copies = argc > 1 ? std::atoi(argv[1]) : 2;
  const std::uint64_t iterations = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 400000000u;
  const double alone = seconds_of(1, iterations), together = seconds_of(copies, iterations);
  std::printf("{\"copies\": %d, \"seconds_alone\": %.3f, \"seconds_together\": %.3f, \"ceiling\": %.3f}\n", copies,
              alone, together, copies * alone / together);
}
