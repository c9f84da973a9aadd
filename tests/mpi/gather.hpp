#pragma once
// Every rank's part of a distributed vector, in rank order, on rank 0.
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/vector.hpp>

#include <vector>

namespace tdcone::test_support {

template <class T>
std::vector<T> gather_in_order(const boost::mpi::communicator& comm, const std::vector<T>& mine) {
  std::vector<std::vector<T>> parts;
  boost::mpi::gather(comm, mine, parts, 0);
  std::vector<T> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

}  // namespace tdcone::test_support
