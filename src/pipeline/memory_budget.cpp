#include "tdcone/pipeline/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "tdcone/error.hpp"

namespace tdcone::pipeline {

namespace {

// Bytes of a unit: "" and "b" bytes; k, m, g, t, alone or with B or iB (any
// case), powers of 1024. 0 for anything else.
double unit_bytes(std::string unit) {
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  if (unit.empty() || unit == "b") return 1;
  if (unit.size() == 3 && unit.ends_with("ib")) unit.resize(1);
  if (unit.size() == 2 && unit.ends_with("b")) unit.resize(1);
  const std::size_t power = std::string("kmgt").find(unit);
  return unit.size() == 1 && power != std::string::npos ? std::pow(1024.0, static_cast<double>(power + 1)) : 0;
}

// The bytes of `text`, or 0 with `problem` said.
double read_size(const std::string& text, SizeOf what, std::string& problem) {
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
  }
  const std::string unit = used < text.size() ? text.substr(used) : "";
  const double scale = unit_bytes(unit);
  if (!(value > 0) || scale == 0 || value * scale > 1e18) {
    problem = cat(text, " is not a size such as 1500M or 2G");
    return 0;
  }
  // No rank runs in less than a mebibyte: a bare budget that small lost its unit.
  if (what == SizeOf::budget && unit.empty() && value < 1024.0 * 1024) {
    problem = cat(text, " is ", text, " bytes; did you mean ", text, "M or ", text, "G?");
    return 0;
  }
  return value * scale;
}

}  // namespace

std::string memory_size_problem(const std::string& text, SizeOf what) {
  std::string problem;
  read_size(text, what, problem);
  return problem;
}

std::uint64_t parse_memory_size(const std::string& text, const std::string& option, SizeOf what) {
  std::string problem;
  const double bytes = read_size(text, what, problem);
  if (!problem.empty()) throw UsageError(cat(option, ": ", problem));
  return static_cast<std::uint64_t>(bytes);
}

std::string format_bytes(double bytes) {
  char text[32];
  constexpr double mib = 1024.0 * 1024.0, gib = 1024.0 * mib;
  if (bytes >= gib)
    std::snprintf(text, sizeof text, "%.2f GiB", bytes / gib);
  else
    std::snprintf(text, sizeof text, "%.0f MiB", bytes / mib);
  return text;
}

std::string budget_advice(int ranks, double needed, std::uint64_t budget) {
  const double ask = needed * 4 / 3;
  return cat("needs at least ", static_cast<std::uint64_t>(std::ceil(ranks * ask / static_cast<double>(budget))),
             " ranks or --memory ", static_cast<std::uint64_t>(std::ceil(ask / (1 << 20))), "M");
}

namespace {

// The memory limit of this process's cgroup (v2 or v1), or 0 when there is none.
std::uint64_t cgroup_limit() {
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(path);
    std::string value;
    if (in >> value && !value.empty() && std::isdigit(static_cast<unsigned char>(value[0]))) {
      const std::uint64_t limit = std::stoull(value);
      if (limit < (std::uint64_t{1} << 60)) return limit;
    }
  }
  return 0;
}

}  // namespace

std::uint64_t default_memory_budget(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks_on_node = 1;
  MPI_Comm_size(node, &ranks_on_node);
  MPI_Comm_free(&node);
  std::uint64_t memory = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
  if (const std::uint64_t limit = cgroup_limit(); limit > 0) memory = std::min(memory, limit);
  std::uint64_t budget = memory / 10 * 8 / static_cast<std::uint64_t>(ranks_on_node);
  // Every rank uses the same budget: the smallest.
  MPI_Allreduce(MPI_IN_PLACE, &budget, 1, MPI_UINT64_T, MPI_MIN, comm);
  return budget;
}

std::uint64_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // kB
  return 0;
}

}  // namespace tdcone::pipeline
