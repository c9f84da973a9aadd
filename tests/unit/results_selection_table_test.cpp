// The rows of /selection (results/selection_table.hpp) on one rank, by hand:
// the ranked lines in selection order, then the lines already in the seed,
// those left out by --where, junk and bad lines, each in input order; with
// --stop every line past stop_rank flagged not selected.
#include "tdcone/results/selection_table.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace tdcone::results {
namespace {

namespace bmpi = boost::mpi;
using namespace schema;  // the flag bits

struct Example {
  select::Selection selection;
  select::Statistics stats;
  text::TokenizedShare available;
  std::vector<std::size_t> junk{1, 2, 4, 6};

  Example() {
    stats.lexicon = {"a", "b", "c"};
    selection.ranked = {{3, -1.0, 0.5, -1.5, 2.0, 1, -0.7}, {0, -0.5, 0.25, -0.75, 1.5, 2, -0.3}, {5, 0.1, 0.2, 0.1, 1.6, 0, 0}};
    selection.stop_rank = 2;
    // Line 1 bad (also left out: bad wins), 2 in the seed, 4 left out, 6 junk.
    available.flags = {0, bad_line | left_out, in_seed, 0, left_out, 0, 0};
  }
  SelectionTable table(bool stop) const {
    const bmpi::communicator self(MPI_COMM_SELF, bmpi::comm_attach);
    return selection_table(self, selection, stats, available, junk, stop);
  }
};

TEST(SelectionTable, RankedLinesThenSeedThenLeftOutThenJunk) {
  const SelectionTable t = Example().table(false);
  EXPECT_EQ(t.pair_id, (std::vector<std::uint64_t>{3, 0, 5, 2, 4, 1, 6}));
  EXPECT_EQ(t.rank, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(t.flags, (std::vector<std::uint8_t>{0, 0, 0, in_seed, left_out, bad_line, junk}));
  EXPECT_EQ(t.root_word, (std::vector<std::string>{"b", "c", "a", "", "", "", ""}));
  EXPECT_EQ(t.delta_h[0], -1.0);
  EXPECT_EQ(t.penalty[1], 0.25);
  EXPECT_EQ(t.gain[0], -1.5);
  EXPECT_EQ(t.cross_entropy[2], 1.6);
  EXPECT_EQ(t.wge[1], -0.3);
  for (std::size_t row = 3; row < 7; ++row) {
    EXPECT_TRUE(std::isnan(t.delta_h[row])) << row;
    EXPECT_TRUE(std::isnan(t.cross_entropy[row])) << row;
    EXPECT_TRUE(std::isnan(t.wge[row])) << row;
  }
}

TEST(SelectionTable, StopFlagsEveryLinePastTheStopRank) {
  const SelectionTable t = Example().table(true);
  EXPECT_EQ(t.flags, (std::vector<std::uint8_t>{0, 0, not_selected, in_seed | not_selected, left_out | not_selected,
                                                bad_line | not_selected, junk | not_selected}));
}

TEST(SelectionTable, AddNumbersTheRowsFromOne) {
  SelectionTable t;
  t.add(7, 0, 0, 0, 0, "x", 0, 0);
  t.add(2, 0, 0, 0, 0, "y", 0, junk);
  EXPECT_EQ(t.rank, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(t.pair_id, (std::vector<std::uint64_t>{7, 2}));
}

}  // namespace
}  // namespace tdcone::results
