#pragma once
// The per-rank memory budget (--memory) and what a rank actually used.
#include <mpi.h>

#include <cstdint>
#include <string>

namespace tdcone::pipeline {

/// What a size measures: a rank's whole budget (--memory), never under a
/// mebibyte, or a buffer (--round-size), any number of bytes.
enum class SizeOf { budget, buffer };
/// Why `text` is not a size ("" when it is): "1500M", "2G", "2GB", "2GiB",
/// "512k", "1.5g" (K, M, G, T: powers of 1024, any case, B or iB optional), or
/// plain bytes; a budget at least 1 MiB of them ("10" is refused: "did you mean 10M or 10G?").
std::string memory_size_problem(const std::string& text, SizeOf what);
/// The bytes of a size (see memory_size_problem). Throws UsageError naming `option`.
std::uint64_t parse_memory_size(const std::string& text, const std::string& option, SizeOf what);

/// "1.50 GiB", "640 MiB".
std::string format_bytes(double bytes);

/// "needs at least N ranks or --memory M" for a rank that needs `needed`
/// bytes under a `budget` per rank on `ranks` ranks (memory per rank falls as
/// 1/ranks), with a third more room for skew between ranks and buffers.
std::string budget_advice(int ranks, double needed, std::uint64_t budget);

/// 80% of this node's memory (or of its cgroup limit, as under SLURM),
/// divided by the ranks on this node. Collective.
std::uint64_t default_memory_budget(MPI_Comm comm);

/// Peak resident memory of this process so far (VmHWM), in bytes.
std::uint64_t peak_rss_bytes();

}  // namespace tdcone::pipeline
