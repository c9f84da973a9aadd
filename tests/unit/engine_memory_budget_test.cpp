// The default budget from the machine's limits (node memory, cgroup, rlimits,
// ranks on the node), where the cgroup limits are read, and the advice.
#include "tdcone/engine/memory_budget.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tdcone::engine {
namespace {

constexpr std::uint64_t MiB = std::uint64_t{1} << 20, GiB = MiB << 10;

TEST(DefaultBudget, TheSmallestLimitWins) {
  MachineMemory machine;
  machine.physical = 16 * GiB;
  machine.ranks_on_node = 4;
  EXPECT_EQ(budget_for(machine).bytes, static_cast<std::uint64_t>(0.8 * 16 * GiB / 4));  // 80% of the node over its 4 ranks
  EXPECT_EQ(budget_for(machine).rule, "80% of the node's memory 16.00 GiB over 4 ranks on the node");

  machine.cgroup = 4 * GiB;  // SLURM's limit, shared by the node's ranks too
  const auto cgroup_share = static_cast<std::uint64_t>(0.8 * 4 * GiB / 4);
  EXPECT_EQ(budget_for(machine).bytes, cgroup_share);
  EXPECT_EQ(budget_for(machine).rule, "80% of the cgroup limit 4.00 GiB over 4 ranks on the node");

  // ulimit -v is per process: not divided by the ranks, less what is mapped already.
  machine.address_space = 2 * GiB;
  machine.mapped = 200 * MiB;
  EXPECT_EQ(budget_for(machine).bytes, cgroup_share);  // 80% of 1848 MiB: the cgroup's share is smaller
  machine.address_space = 600 * MiB;
  EXPECT_EQ(budget_for(machine).bytes, static_cast<std::uint64_t>(0.8 * 400 * MiB));
  EXPECT_EQ(budget_for(machine).rule,
            "80% of the address-space limit 600 MiB (ulimit -v/-d) less the 200 MiB mapped at start");

  machine.mapped = 700 * MiB;  // nothing left: the smallest budget, refused with advice at the first round
  EXPECT_EQ(budget_for(machine).bytes, MiB);
}

TEST(DefaultBudget, CgroupFiles) {
  EXPECT_EQ(cgroup_limit_files("0::/slurm/job_7/step_0\n"),
            (std::vector<std::string>{"/sys/fs/cgroup/slurm/job_7/step_0/memory.max", "/sys/fs/cgroup/slurm/job_7/memory.max",
                                      "/sys/fs/cgroup/slurm/memory.max", "/sys/fs/cgroup/memory.max"}));
  EXPECT_EQ(cgroup_limit_files("0::/\n"), (std::vector<std::string>{"/sys/fs/cgroup/memory.max"}));
  EXPECT_EQ(cgroup_limit_files("5:cpuset:/a\n4:cpu,memory:/job/\n1:name=systemd:/x\n"),
            (std::vector<std::string>{"/sys/fs/cgroup/memory/job/memory.limit_in_bytes",
                                      "/sys/fs/cgroup/memory/memory.limit_in_bytes"}));
  EXPECT_TRUE(cgroup_limit_files("").empty());
  EXPECT_EQ(cgroup_limit_value("4294967296\n"), 4 * GiB);
  EXPECT_EQ(cgroup_limit_value("max\n"), 0u);
  EXPECT_EQ(cgroup_limit_value("9223372036854771712\n"), 0u);  // v1: no limit
  EXPECT_EQ(cgroup_limit_value(""), 0u);                       // no such file
}

TEST(MemoryAdvice, TheNeedWithHeadroomAndNeverLessThanRefused) {
  MemoryNeed need{10.0 * MiB, 70.0 * MiB, 4.0 * MiB, 1};
  // 1.25 x 84 MiB = 105 MiB; or ranks that leave each 60/1.25 - 10 - 4 = 34 MiB for 2 x 70 MiB: 5.
  EXPECT_EQ(memory_advice(need, 2, 60 * MiB, 0), "try --memory 105M or at least 5 ranks");
  // Rounds of --memory/16 grow with it: 1.25 x 80 / (1 - 1.25 x 4/60) = 109.1 MiB,
  need.buffers_growth = 4;
  EXPECT_EQ(memory_advice(need, 2, 60 * MiB, 0), "try --memory 110M or at least 5 ranks");
  // up to their cap: 1.25 x (80 + 1.5 x 4) = 107.5 MiB.
  need.buffers_growth = 1.5;
  EXPECT_EQ(memory_advice(need, 2, 60 * MiB, 0), "try --memory 108M or at least 5 ranks");
  need.buffers_growth = 4;
  // Beyond what this machine gives a rank: ranks only.
  EXPECT_EQ(memory_advice(need, 2, 60 * MiB, 100 * MiB),
            "try at least 5 ranks (--memory 110M is more than this machine's 100 MiB per rank)");
  // The vocabulary alone fills the budget: no rank count helps. 1.25 x (120 + 4 x 4) = 170 MiB.
  need.shared = 50.0 * MiB;
  EXPECT_EQ(memory_advice(need, 2, 40 * MiB, 0), "try --memory 170M");
  EXPECT_EQ(memory_advice(need, 2, 40 * MiB, 100 * MiB), "needs --memory 170M, more than this machine's 100 MiB per rank");
  // Never the budget just refused, nor less.
  EXPECT_EQ(memory_advice(MemoryNeed{0, 1.0 * MiB, 0, 1}, 1, 64 * MiB, 0), "try --memory 65M or at least 2 ranks");
}

// A size below a unit's 1 is shown in the next smaller unit, never as 0 of it.
TEST(MemoryBudget, FormattedBytesAreNeverRoundedToZero) {
  EXPECT_EQ(format_bytes(1.5 * GiB), "1.50 GiB");
  EXPECT_EQ(format_bytes(640.0 * MiB), "640 MiB");
  EXPECT_EQ(format_bytes(1.0 * MiB), "1 MiB");
  EXPECT_EQ(format_bytes(1024.0), "1 KiB");
  EXPECT_EQ(format_bytes(512.0 * 1024), "512 KiB");
  EXPECT_EQ(format_bytes(100.0), "100 bytes");
}

}  // namespace
}  // namespace tdcone::engine
