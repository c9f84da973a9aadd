#pragma once
// The per-rank memory budget (--memory) and what a rank actually used.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tdcone::engine {

/// "1.50 GiB", "640 MiB"; below 1 MiB "512 KiB", below 1 KiB "100 bytes".
std::string format_bytes(double bytes);

/// What a run must hold at once on its fullest rank, as measured: `shared`
/// bytes every rank holds whatever their number (the vocabulary), `split`
/// bytes that spread over the ranks (the shares and the rank's part of the
/// matrices, projected to the end of the run), and `buffers`, the round
/// buffers, which grow with the budget while rounds are --memory/16, up to
/// `buffers_growth` times (their size unbounded by the budget; 1: fixed).
struct MemoryNeed {
  double shared = 0, split = 0, buffers = 0, buffers_growth = 1;
};

/// The headroom the advice adds to what was measured.
constexpr double kAdviceHeadroom = 1.25;

/// The one place that advises a budget: "try <memory> M or at least N ranks"
/// for a run on `ranks` ranks refused under `budget`, where M = 1.25 x `need`
/// (kAdviceHeadroom, a whole number of MiB, more than `budget`) and N the
/// fewest ranks that fit `budget`. A rank count alone when M exceeds
/// `machine` (this machine's budget per rank, 0: unknown); M alone when no
/// rank count fits.
std::string memory_advice(const MemoryNeed& need, int ranks, std::uint64_t budget, std::uint64_t machine);

/// What bounds a rank's memory on this node (0: no such bound).
struct MachineMemory {
  std::uint64_t physical = 0;       // the node's memory
  std::uint64_t cgroup = 0;         // the smallest limit of this process's cgroup and its parents
  std::uint64_t address_space = 0;  // RLIMIT_AS or RLIMIT_DATA, the smaller (per process)
  std::uint64_t mapped = 0;         // address space in use already (VmSize: MPI, the libraries)
  int ranks_on_node = 1;
};

/// A default budget and the rule that gave it ("80% of the cgroup limit 4.00 GiB over 2 ranks on the node").
struct MachineBudget {
  std::uint64_t bytes = 0;
  std::string rule;
};

/// 80% of the smallest of the node's memory and its cgroup limit over the
/// ranks on the node, and of what RLIMIT_AS/RLIMIT_DATA leaves the process
/// (less what it has mapped already), whichever is smaller.
MachineBudget budget_for(const MachineMemory& machine);

/// The files holding the memory limits of the cgroup in /proc/self/cgroup
/// (`proc_self_cgroup`, its text) and its parents: memory.max (v2) or
/// memory.limit_in_bytes (v1) under /sys/fs/cgroup.
std::vector<std::string> cgroup_limit_files(const std::string& proc_self_cgroup);
/// A limit file's bytes; 0 for "max" or v1's "no limit" (about 2^63).
std::uint64_t cgroup_limit_value(const std::string& text);

/// How many ranks of `comm` run on this rank's node (share its memory). Collective.
int ranks_on_node(MPI_Comm comm);

/// This node's budget per rank (budget_for), the same on every rank (the
/// smallest). Collective.
MachineBudget default_memory_budget(MPI_Comm comm);

/// Remembered for this rank's out-of-memory message (set_out_of_memory_message
/// in error.hpp): the budget and this machine's budget, with the phase running
/// (current_phase in activity.hpp).
void note_memory_budget(std::uint64_t budget, const MachineBudget& machine);
/// "out of memory in align (<memory> 300 MiB per rank; 80% of ...): try <memory> 200M or more ranks"
std::string explain_out_of_memory();

/// Peak resident memory of this process so far (VmHWM), in bytes.
std::uint64_t peak_rss_bytes();
/// Notes the resident memory of this process (VmRSS) as what MPI and the
/// libraries hold: cli::run_cli() calls it first, once MPI has started.
void note_resident_at_start();
/// The memory noted by note_resident_at_start(), 0 if it never was (the
/// tests: a process that ran other jobs before holds more than they did).
std::uint64_t resident_at_start();

}  // namespace tdcone::engine
