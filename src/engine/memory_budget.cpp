#include "tdcone/engine/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/string.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>

#include "tdcone/core/error.hpp"
#include "tdcone/core/activity.hpp"
#include "tdcone/core/memory_pages.hpp"

namespace tdcone::engine {

std::string format_bytes(double bytes) {
  char text[32];
  constexpr double kib = 1024.0, mib = 1024.0 * kib, gib = 1024.0 * mib;
  // Below a unit's 1 the next smaller unit: a size such as --memory 1k is never shown as 0.
  if (bytes >= gib)
    std::snprintf(text, sizeof text, "%.2f GiB", bytes / gib);
  else if (bytes >= mib)
    std::snprintf(text, sizeof text, "%.0f MiB", bytes / mib);
  else if (bytes >= kib)
    std::snprintf(text, sizeof text, "%.0f KiB", bytes / kib);
  else
    std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  return text;
}

std::string memory_advice(const MemoryNeed& need, int ranks, std::uint64_t budget, std::uint64_t machine) {
  constexpr double mib = 1 << 20;
  const double h = kAdviceHeadroom, fixed = need.shared + need.split;
  // A = h (fixed + buffers min(A / budget, growth)): rounds of --memory/16 grow with the advice itself, up to their cap.
  const double slope = h * need.buffers / static_cast<double>(budget);
  const double ask = std::min(h * (fixed + need.buffers * need.buffers_growth),
                              slope < 1 ? h * fixed / (1 - slope) : std::numeric_limits<double>::infinity());
  // Never less than what was just refused.
  const auto advised = std::max(static_cast<std::uint64_t>(std::ceil(ask / mib)), budget / (1 << 20) + 1);
  // More ranks split `split`; the vocabulary and (no larger) round buffers stay.
  const double room = static_cast<double>(budget) / h - need.shared - need.buffers;
  const std::uint64_t more_ranks =
      room > 0 ? std::max<std::uint64_t>(static_cast<std::uint64_t>(std::ceil(ranks * need.split / room)), ranks + 1) : 0;
  const std::string memory = cat(Option::memory, " ", advised, "M");
  if (machine > 0 && advised * mib > static_cast<double>(machine)) {
    const std::string most = cat("this machine's ", format_bytes(static_cast<double>(machine)), " per rank");
    return more_ranks > 0 ? cat("try at least ", more_ranks, " ranks (", memory, " is more than ", most, ")")
                          : cat("needs ", memory, ", more than ", most);
  }
  return more_ranks > 0 ? cat("try ", memory, " or at least ", more_ranks, " ranks") : cat("try ", memory);
}

namespace {

constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 60;

// The smaller of two bounds, 0 being none.
std::uint64_t tighter(std::uint64_t a, std::uint64_t b) { return a == 0 ? b : b == 0 ? a : std::min(a, b); }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The lowest limit in the files of cgroup_limit_files, 0 when there is none.
std::uint64_t cgroup_limit() {
  std::uint64_t limit = 0;
  for (const auto& file : cgroup_limit_files(read_text("/proc/self/cgroup")))
    limit = tighter(limit, cgroup_limit_value(read_text(file)));
  return limit;
}

// A /proc/self/status field in bytes (its value is in kB), or 0.
std::uint64_t status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field, 0) == 0) return std::stoull(line.substr(field.size())) * 1024;
  return 0;
}

// VmSize: the address space this process has mapped.
std::uint64_t mapped_bytes() { return status_bytes("VmSize:"); }

std::uint64_t resident_at_start_bytes = 0;  // note_resident_at_start()

// A soft rlimit in bytes, 0 when unlimited.
std::uint64_t rlimit_bytes(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= kNoLimit) return 0;
  return limit.rlim_cur;
}

struct MemoryContext {
  std::uint64_t budget = 0;
  MachineBudget machine;
};
MemoryContext& memory_context() {
  static MemoryContext context;
  return context;
}

}  // namespace

std::vector<std::string> cgroup_limit_files(const std::string& proc_self_cgroup) {
  std::vector<std::string> files;
  std::istringstream lines(proc_self_cgroup);
  for (std::string line; std::getline(lines, line);) {
    // "0::/path" (v2), "4:memory:/path" (v1); the path is relative to the
    // hierarchy's mount, which in a container may show only its end: the
    // path, each parent and the root are tried, missing files skipped.
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1), mount, file;
    if (line.substr(0, first) == "0" && controllers.empty()) {
      mount = "/sys/fs/cgroup";
      file = "/memory.max";
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      mount = "/sys/fs/cgroup/memory";
      file = "/memory.limit_in_bytes";
    } else {
      continue;
    }
    for (;;) {
      while (path.ends_with('/')) path.pop_back();
      files.push_back(mount + path + file);
      if (path.empty()) break;
      path.resize(path.rfind('/'));
    }
  }
  return files;
}

std::uint64_t cgroup_limit_value(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return 0;  // "max", or no file
  const std::uint64_t limit = std::stoull(text);
  return limit < kNoLimit ? limit : 0;
}

MachineBudget budget_for(const MachineMemory& machine) {
  constexpr double share = 0.8;
  MachineBudget result;
  const std::uint64_t node = tighter(machine.physical, machine.cgroup);
  if (node > 0) {
    result.bytes = static_cast<std::uint64_t>(share * static_cast<double>(node) / std::max(machine.ranks_on_node, 1));
    result.rule = cat("80% of the ", node == machine.cgroup ? "cgroup limit " : "node's memory ",
                      format_bytes(static_cast<double>(node)), " over ", machine.ranks_on_node, " rank",
                      machine.ranks_on_node == 1 ? "" : "s", " on the node");
  }
  // The address space is the process's own, not shared with the node's other ranks.
  if (machine.address_space > 0) {
    const std::uint64_t left = machine.address_space > machine.mapped ? machine.address_space - machine.mapped : 0;
    const auto bytes = static_cast<std::uint64_t>(share * static_cast<double>(left));
    if (result.bytes == 0 || bytes < result.bytes) {
      result.bytes = bytes;
      result.rule = cat("80% of the address-space limit ", format_bytes(static_cast<double>(machine.address_space)),
                        " (ulimit -v/-d) less the ", format_bytes(static_cast<double>(machine.mapped)), " mapped at start");
    }
  }
  result.bytes = std::max<std::uint64_t>(result.bytes, 1 << 20);
  return result;
}

int ranks_on_node(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks = 1;
  MPI_Comm_size(node, &ranks);
  MPI_Comm_free(&node);
  return ranks;
}

MachineBudget default_memory_budget(MPI_Comm comm) {
  MachineMemory machine;
  machine.ranks_on_node = ranks_on_node(comm);
  machine.physical = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
  machine.cgroup = cgroup_limit();
  machine.address_space = tighter(rlimit_bytes(RLIMIT_AS), rlimit_bytes(RLIMIT_DATA));
  machine.mapped = mapped_bytes();
  MachineBudget budget = budget_for(machine);
  // Every rank uses the same budget: the smallest, with its rule.
  struct {
    double bytes;
    int rank;
  } mine{static_cast<double>(budget.bytes), 0}, least{};
  MPI_Comm_rank(comm, &mine.rank);
  MPI_Allreduce(&mine, &least, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
  budget.bytes = static_cast<std::uint64_t>(least.bytes);
  boost::mpi::broadcast(boost::mpi::communicator(comm, boost::mpi::comm_attach), budget.rule, least.rank);
  return budget;
}

void note_memory_budget(std::uint64_t budget, const MachineBudget& machine) {
  memory_context().budget = budget;
  memory_context().machine = machine;
  set_out_of_memory_message(explain_out_of_memory);
}

std::string explain_out_of_memory() {
  const MemoryContext& context = memory_context();
  const std::uint64_t machine = context.machine.bytes;
  std::string message = "out of memory";
  if (!current_phase().empty()) message += " in " + current_phase();
  if (context.budget > 0)
    message += cat(" (", Option::memory, " ", format_bytes(static_cast<double>(context.budget)), " per rank; this machine's is ",
                   format_bytes(static_cast<double>(machine)), ", ", context.machine.rule, ")");
  // The budget bounds the rounds and is checked; past the machine's, the machine's limit is met first.
  if (machine > 0 && context.budget > machine)
    return cat(message, ": try ", Option::memory, " ", machine >> 20, "M or more ranks");
  return message + ": try more ranks, or a higher memory limit";
}

std::uint64_t peak_rss_bytes() { return status_bytes("VmHWM:"); }

void note_resident_at_start() { resident_at_start_bytes = resident_bytes(); }

std::uint64_t resident_at_start() { return resident_at_start_bytes; }

}  // namespace tdcone::engine
