#include "tdcone/mpi/guard.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>

#include "tdcone/error.hpp"

namespace tdcone::mpi {

void collective_step(const boost::mpi::communicator& comm, const std::function<void()>& step) {
  std::pair<int, std::string> failure{0, ""};  // exit status, message
  try {
    step();
  } catch (const UsageError& e) {
    failure = {2, e.what()};
  } catch (const std::exception& e) {
    failure = {1, e.what()};
  }
  const int mine = failure.first != 0 ? comm.rank() : comm.size();
  const int first_failed = boost::mpi::all_reduce(comm, mine, boost::mpi::minimum<int>());
  if (first_failed == comm.size()) return;
  boost::mpi::broadcast(comm, failure, first_failed);
  const std::string where = comm.size() > 1 ? cat("rank ", first_failed, ": ") : "";
  throw CollectiveError(where + failure.second, failure.first);
}

void fail_everywhere(const std::string& message, int status) { throw CollectiveError(message, status); }

}  // namespace tdcone::mpi
