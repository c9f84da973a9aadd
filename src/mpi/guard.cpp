#include "tdcone/mpi/guard.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>

#include "tdcone/error.hpp"

namespace tdcone::mpi {

std::optional<Failure> first_failure(MPI_Comm comm, int status, const std::string& message) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // One reduction: the lowest failing rank, and whether every rank failed.
  const int mine[2] = {status != 0 ? rank : size, status != 0 ? 1 : 0};
  int least[2] = {size, 0};
  MPI_Allreduce(mine, least, 2, MPI_INT, MPI_MIN, comm);
  const int first = least[0];
  if (first == size) return std::nullopt;
  std::pair<int, std::string> failure{status, message};
  boost::mpi::broadcast(boost::mpi::communicator(comm, boost::mpi::comm_attach), failure, first);
  return Failure{first, least[1] == 1, failure.first, failure.second};
}

int run_local_step(const std::function<void()>& step, std::string& message) {
  try {
    step();
  } catch (const UsageError& e) {
    message = e.what();
    return 2;
  } catch (const std::exception& e) {
    message = e.what();
    return 1;
  }
  return 0;
}

void collective_step(const boost::mpi::communicator& comm, const std::function<void()>& step) {
  std::string message;
  const int status = run_local_step(step, message);
  const auto failure = first_failure(comm, status, message);
  if (failure) throw collective_error(*failure);
}

CollectiveError collective_error(const Failure& failure) {
  const std::string where = failure.everywhere ? "" : cat("rank ", failure.rank, ": ");
  return CollectiveError(where + failure.message, failure.status);
}

void fail_everywhere(const std::string& message, int status) { throw CollectiveError(message, status); }

}  // namespace tdcone::mpi
