// The all-to-all exchange and sums over ranks (mpi/exchange.hpp): every
// record reaches its rank, in rank order of the senders (or its own first).
#include "tdcone/mpi/exchange.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace tdcone::mpi {
namespace {

struct Record {
  std::int32_t from, to, k;
};

// This rank's outbox: count(t) records {rank, t, k} for each rank t, k = 0, 1, ...
template <class Count>
std::vector<std::vector<Record>> outbox_sending(int rank, int ranks, Count count) {
  std::vector<std::vector<Record>> outbox(ranks);
  for (int t = 0; t < ranks; ++t)
    for (int k = 0; k < count(t); ++k) outbox[t].push_back({rank, t, k});
  return outbox;
}

TEST(Exchange, EveryRecordReachesItsRankInSenderOrder) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // Rank r sends k = 0..(r + t) % 3 - 1 to rank t: some outboxes empty.
  const auto outbox = outbox_sending(rank, ranks, [rank](int t) { return (rank + t) % 3; });
  const Received<Record> in = all_to_all(MPI_COMM_WORLD, outbox);
  ASSERT_EQ(in.offset.size(), static_cast<std::size_t>(ranks) + 1);
  EXPECT_EQ(in.offset[0], 0u);
  for (int r = 0; r < ranks; ++r) {
    ASSERT_EQ(in.offset[r + 1] - in.offset[r], static_cast<std::size_t>((r + rank) % 3)) << "from rank " << r;
    for (std::size_t i = in.offset[r]; i < in.offset[r + 1]; ++i) {
      EXPECT_EQ(in.records[i].from, r);
      EXPECT_EQ(in.records[i].to, rank);
      EXPECT_EQ(in.records[i].k, static_cast<std::int32_t>(i - in.offset[r]));
    }
  }
  EXPECT_EQ(in.records.size(), in.offset[ranks]);
}

TEST(Exchange, TakingTheSendersBuffersGivesTheSameRecordsAndAloneNoCopy) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  auto outbox = outbox_sending(rank, ranks, [rank](int t) { return 2 + rank + t; });
  const Received<Record> copied = all_to_all(MPI_COMM_WORLD, outbox);
  const Record* own = outbox[0].data();
  Received<Record> taken;
  taken.records.push_back({-1, -1, -1});  // a buffer from an earlier round
  all_to_all_taking(MPI_COMM_WORLD, outbox, taken);
  EXPECT_EQ(taken.offset, copied.offset);
  ASSERT_EQ(taken.records.size(), copied.records.size());
  for (std::size_t i = 0; i < copied.records.size(); ++i) {
    EXPECT_EQ(taken.records[i].from, copied.records[i].from) << i;
    EXPECT_EQ(taken.records[i].k, copied.records[i].k) << i;
  }
  if (ranks == 1) {
    EXPECT_EQ(taken.records.data(), own) << "alone, the box itself becomes the records";
  }
}

TEST(Exchange, OwnFirstGivesTheOwnRecordsInPlaceThenTheOthersInRankOrder) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto count = [](int from, int to) { return (from + to) % 3 + (to == 1 ? 2 : 0); };
  auto outbox = outbox_sending(rank, ranks, [&](int t) { return count(rank, t); });
  const auto sent_here = [&](int sender) { return static_cast<std::size_t>(count(sender, rank)); };
  std::size_t total = 0;  // what every rank sends this one
  for (int r = 0; r < ranks; ++r) total += sent_here(r);
  outbox[rank].reserve(total);  // room for all: no copy
  const Record* own = outbox[rank].data();
  const std::size_t own_count = outbox[rank].size();
  Received<Record> in;
  all_to_all_own_first(MPI_COMM_WORLD, outbox, in);
  ASSERT_EQ(in.records.size(), total);
  ASSERT_EQ(in.offset.size(), static_cast<std::size_t>(ranks) + 1);
  EXPECT_EQ(in.offset[0], 0u);
  EXPECT_EQ(in.offset[1], own_count);
  EXPECT_EQ(in.offset.back(), total);
  if (own_count > 0) {
    EXPECT_EQ(in.records.data(), own) << "the own box itself begins the records";
  }
  std::vector<int> senders{rank};  // the runs' senders: own, then the others in rank order
  for (int r = 0; r < ranks; ++r)
    if (r != rank) senders.push_back(r);
  for (std::size_t run = 0; run < senders.size(); ++run) {
    const int r = senders[run];
    ASSERT_EQ(in.offset[run + 1] - in.offset[run], sent_here(r)) << "from rank " << r;
    for (std::size_t i = in.offset[run]; i < in.offset[run + 1]; ++i) {
      EXPECT_EQ(in.records[i].from, r);
      EXPECT_EQ(in.records[i].to, rank);
      EXPECT_EQ(in.records[i].k, static_cast<std::int32_t>(i - in.offset[run]));
    }
  }
}

TEST(Exchange, SumsOverAllRanks) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(ranks);
  EXPECT_EQ(sum_all(MPI_COMM_WORLD, std::vector<std::uint64_t>{1, r, std::uint64_t{1} << 40}),
            (std::vector<std::uint64_t>{n, n * (n - 1) / 2, n << 40}));
  EXPECT_EQ(sum_all(MPI_COMM_WORLD, 0.5), 0.5 * ranks);
}

}  // namespace
}  // namespace tdcone::mpi
