#pragma once
// All-to-all exchange of plain records between the ranks of a communicator.
#include <mpi.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace tdcone::mpi {

/// What a rank received: the records of every source rank, in rank order.
template <class T>
struct Received {
  std::vector<T> records;
  std::vector<std::size_t> offset;  // records from rank r: [offset[r], offset[r+1])
};

/// Sends outbox[r] to rank r (counted in records, so large exchanges do not
/// overflow MPI's int byte counts). Point to point from each outbox vector
/// into one receive buffer: the records are not copied into a send buffer
/// first. Into `in`, whose buffers are reused: a round after round exchange
/// keeps its pages (unless a round needs less than half of them). Collective.
template <class T>
void all_to_all(MPI_Comm comm, const std::vector<std::vector<T>>& outbox, Received<T>& in) {
  static_assert(std::is_trivially_copyable_v<T>);
  int n_ranks = 1;
  MPI_Comm_size(comm, &n_ranks);
  MPI_Datatype record;
  MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &record);
  MPI_Type_commit(&record);

  std::vector<int> send_counts(n_ranks), recv_counts(n_ranks);
  for (int r = 0; r < n_ranks; ++r) send_counts[r] = static_cast<int>(outbox[r].size());
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  in.offset.assign(n_ranks + 1, 0);
  for (int r = 0; r < n_ranks; ++r) in.offset[r + 1] = in.offset[r] + recv_counts[r];
  // Exactly the records (resize() would double them), anew for a round less
  // than half as large: the pages it no longer needs go.
  if (in.records.capacity() < in.offset[n_ranks] || in.records.capacity() / 2 > in.offset[n_ranks]) {
    std::vector<T>().swap(in.records);
    in.records.reserve(in.offset[n_ranks]);
  }
  in.records.resize(in.offset[n_ranks]);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * n_ranks);
  for (int r = 0; r < n_ranks; ++r)
    if (recv_counts[r] > 0)
      MPI_Irecv(in.records.data() + in.offset[r], recv_counts[r], record, r, 0, comm, &requests.emplace_back());
  for (int r = 0; r < n_ranks; ++r)
    if (send_counts[r] > 0)
      MPI_Isend(outbox[r].data(), send_counts[r], record, r, 0, comm, &requests.emplace_back());
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  MPI_Type_free(&record);
}

/// The same, taking the sender's buffers where it can: alone, a rank's box
/// for itself becomes the records without a copy (and without a second
/// buffer), and outbox[0] gets the old records' buffer. Collective.
template <class T>
void all_to_all_taking(MPI_Comm comm, std::vector<std::vector<T>>& outbox, Received<T>& in) {
  int n_ranks = 1;
  MPI_Comm_size(comm, &n_ranks);
  if (n_ranks > 1) return all_to_all(comm, outbox, in);
  in.records.swap(outbox[0]);
  in.offset = {0, in.records.size()};
}

/// The same into a new Received. Collective.
template <class T>
Received<T> all_to_all(MPI_Comm comm, const std::vector<std::vector<T>>& outbox) {
  Received<T> in;
  all_to_all(comm, outbox, in);
  return in;
}

/// Element-wise sums over all ranks (double or std::uint64_t). Collective.
template <class T>
std::vector<T> sum_all(MPI_Comm comm, const std::vector<T>& values);

template <class T>
T sum_all(MPI_Comm comm, T value) {
  return sum_all(comm, std::vector<T>{value})[0];
}

}  // namespace tdcone::mpi
