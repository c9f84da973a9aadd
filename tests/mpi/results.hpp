#pragma once
// Helpers of the MPI tests: every rank's part of a distributed vector, in
// rank order, on rank 0; two subsets' scores compared.
#include <gtest/gtest.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/vector.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "tdcone/entropy/subset_scores.hpp"

namespace tdcone::test_support {

template <class T>
std::vector<T> gather_in_order(const boost::mpi::communicator& comm, const std::vector<T>& mine) {
  std::vector<std::vector<T>> parts;
  boost::mpi::gather(comm, mine, parts, 0);
  std::vector<T> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// `relative` 0: the same bits (any rank count, any round size); else to that relative error.
inline void expect_same_scores(const entropy::SubsetScore& a, const entropy::SubsetScore& b, const std::string& what,
                        double relative = 1e-12) {
  EXPECT_EQ(a.n_pairs, b.n_pairs) << what;
  EXPECT_EQ(a.nnz, b.nnz) << what;
  EXPECT_EQ(a.output_types, b.output_types) << what;
  auto expect_close = [&](double x, double y, const char* name) {
    if (std::isnan(x) || std::isnan(y)) {  // a subset without pairs has no scores (NaN)
      EXPECT_EQ(std::isnan(x), std::isnan(y)) << what << " " << name;
      return;
    }
    if (relative == 0) {
      EXPECT_EQ(x, y) << what << " " << name;
    } else {
      EXPECT_NEAR(x, y, relative * std::abs(y)) << what << " " << name;
    }
  };
  expect_close(a.total, b.total, "total");
  expect_close(a.cond_entropy, b.cond_entropy, "cond_entropy");
  expect_close(a.tdcone, b.tdcone, "tdcone");
  if (std::isnan(b.kl_pq)) {
    EXPECT_TRUE(std::isnan(a.kl_pq)) << what;
    return;
  }
  expect_close(a.kl_pq, b.kl_pq, "kl_pq");
  expect_close(a.kl_pu, b.kl_pu, "kl_pu");
  expect_close(a.tdcone_rel, b.tdcone_rel, "tdcone_rel");
}

}  // namespace tdcone::test_support
