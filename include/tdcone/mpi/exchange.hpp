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
/// overflow MPI's int byte counts). Collective.
template <class T>
Received<T> all_to_all(MPI_Comm comm, const std::vector<std::vector<T>>& outbox) {
  static_assert(std::is_trivially_copyable_v<T>);
  int n_ranks = 1;
  MPI_Comm_size(comm, &n_ranks);
  MPI_Datatype record;
  MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &record);
  MPI_Type_commit(&record);

  std::vector<int> send_counts(n_ranks), send_displs(n_ranks), recv_counts(n_ranks), recv_displs(n_ranks);
  std::vector<T> send;
  for (int r = 0; r < n_ranks; ++r) {
    send_displs[r] = static_cast<int>(send.size());
    send_counts[r] = static_cast<int>(outbox[r].size());
    send.insert(send.end(), outbox[r].begin(), outbox[r].end());
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  Received<T> in;
  in.offset.assign(n_ranks + 1, 0);
  for (int r = 0; r < n_ranks; ++r) {
    recv_displs[r] = static_cast<int>(in.offset[r]);
    in.offset[r + 1] = in.offset[r] + recv_counts[r];
  }
  in.records.resize(in.offset[n_ranks]);
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), record, in.records.data(),
                recv_counts.data(), recv_displs.data(), record, comm);
  MPI_Type_free(&record);
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
