// Duplicates and source groups (engine/duplicates.hpp) over 1-4 ranks: eight
// pairs with hand-made keys, split over the ranks; every later copy of a pair
// flagged duplicate and pointing at its first occurrence (dup_of), each pair
// in the group of its input side (src_group, src_group_size), pairs whose key
// is a reference pair's flagged in_reference, and a bad line in no group.
// The same answers on any number of ranks.
#include "tdcone/engine/duplicates.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <boost/mpi/communicator.hpp>

#include <string>
#include <vector>

#include "results.hpp"
#include "shared_dir.hpp"
#include "tdcone/hdf5/reader.hpp"
#include "tdcone/schema/pair_flags.hpp"

namespace tdcone::engine {
namespace {

namespace bmpi = boost::mpi;
using namespace schema;  // the flag bits

constexpr std::uint64_t kPairs = 8;
// Pair keys: pairs 2 and 5 repeat pair 0, pair 4 repeats pair 1; pair 7 is bad.
const std::uint64_t kPairKey[kPairs] = {1, 2, 1, 3, 2, 1, 4, 0};
// Input-side keys: pairs 0, 1, 4 share an input; so do nothing else.
const std::uint64_t kSrcKey[kPairs] = {10, 10, 11, 12, 10, 13, 14, 0};

// This rank's contiguous part of the eight pairs.
text::TokenizedShare share_of(const bmpi::communicator& comm) {
  const std::uint64_t first = kPairs * comm.rank() / comm.size(), end = kPairs * (comm.rank() + 1) / comm.size();
  text::TokenizedShare share;
  share.first_pair_id = first;
  share.total_lines = kPairs;
  for (std::uint64_t p = first; p < end; ++p) {
    share.flags.push_back(p == 7 ? bad_line : 0);
    share.pair_keys.push_back(p == 7 ? text::DedupKey{} : text::DedupKey{0, kPairKey[p]});
    share.src_keys.push_back(p == 7 ? text::DedupKey{} : text::DedupKey{0, kSrcKey[p]});
  }
  return share;
}

// A reference of two pairs, all on rank 0: pair key 3 (corpus pair 3's) and 9 (none's).
text::TokenizedShare reference_of(const bmpi::communicator& comm) {
  text::TokenizedShare reference;
  reference.total_lines = 2;
  if (comm.rank() == 0) {
    reference.flags = {0, 0};
    reference.pair_keys = {{0, 3}, {0, 9}};
    reference.src_keys = {{0, 30}, {0, 90}};
  } else {
    reference.first_pair_id = 2;
  }
  return reference;
}

TEST(Duplicates, LaterCopiesAreFlaggedAndCountedOnEveryRank) {
  const bmpi::communicator world;
  text::TokenizedShare share = share_of(world);
  const Duplicates found = Duplicates::find(world, share, nullptr);
  EXPECT_EQ(found.counts().duplicates, 3u);  // pairs 2, 4, 5
  EXPECT_FALSE(found.counts().with_reference);
  const auto flags = test_support::gather_in_order(world, share.flags);
  if (world.rank() == 0) {
    EXPECT_EQ(flags, (std::vector<std::uint8_t>{0, 0, duplicate, 0, duplicate, duplicate, 0, bad_line}));
  }
  EXPECT_TRUE(share.pair_keys.empty());  // dropped: the align phase has their memory
  EXPECT_TRUE(share.src_keys.empty());
}

TEST(Duplicates, PairsWithAReferencePairsKeyAreFlaggedInReference) {
  const bmpi::communicator world;
  text::TokenizedShare share = share_of(world);
  text::TokenizedShare reference = reference_of(world);
  const Duplicates found = Duplicates::find(world, share, &reference);
  EXPECT_EQ(found.counts().in_reference, 1u);
  EXPECT_EQ(found.counts().duplicates, 3u);
  EXPECT_TRUE(found.counts().with_reference);
  const auto flags = test_support::gather_in_order(world, share.flags);
  if (world.rank() == 0) {
    ASSERT_EQ(flags.size(), kPairs);
    EXPECT_EQ(flags[3], in_reference);
    for (std::uint64_t p : {0, 1, 6}) EXPECT_EQ(flags[p], 0) << p;
  }
}

TEST(Duplicates, WritesFirstOccurrencesAndSourceGroups) {
  const bmpi::communicator world;
  const test_support::SharedTempDir dir("duplicates_test");
  const std::string path = (dir.path() / "dups.h5").string();
  text::TokenizedShare share = share_of(world);
  text::TokenizedShare reference = reference_of(world);
  const Duplicates found = Duplicates::find(world, share, &reference);
  {
    hdf5::OutputFile file(path, true, MPI_COMM_WORLD, hdf5::Compression::none);
    file.create_group("/pairs");
    file.create_group("/corpus");
    found.write(file, share);
    file.commit();
  }
  if (world.rank() == 0) {
    const hdf5::Reader result(path);
    EXPECT_EQ(result.read_uint("/pairs/dup_of"), (std::vector<std::uint64_t>{0, 1, 0, 3, 1, 0, 6, 7}));
    EXPECT_EQ(result.read_uint("/pairs/src_group"), (std::vector<std::uint64_t>{0, 0, 2, 3, 0, 5, 6, 7}));
    EXPECT_EQ(result.read_uint("/pairs/src_group_size"), (std::vector<std::uint64_t>{3, 3, 1, 1, 3, 1, 1, 0}));
    EXPECT_EQ(result.attribute_uint("/corpus", "n_duplicates"), 3u);
    EXPECT_EQ(result.attribute_uint("/corpus", "n_in_reference"), 1u);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // before the directory goes
}

}  // namespace
}  // namespace tdcone::engine
