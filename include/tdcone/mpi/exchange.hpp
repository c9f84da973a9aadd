#pragma once
// All-to-all exchange of plain records between the ranks of a communicator.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "tdcone/core/exact_sum.hpp"

namespace tdcone::mpi {

/// What a rank received: the records of every source rank, in rank order
/// (all_to_all_own_first: its own first).
template <class T>
struct Received {
  std::vector<T> records;
  std::vector<std::size_t> offset;  // records from rank r: [offset[r], offset[r+1])
};

namespace detail {

// The record type of T for MPI, freed at the end of the exchange.
class RecordType {
 public:
  explicit RecordType(std::size_t bytes) {
    MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
  }
  ~RecordType() { MPI_Type_free(&type_); }
  RecordType(const RecordType&) = delete;
  RecordType& operator=(const RecordType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_;
};

// How many records each rank sends this one. Collective.
template <class T>
std::vector<int> receive_counts(MPI_Comm comm, const std::vector<std::vector<T>>& outbox) {
  int n_ranks = 1;
  MPI_Comm_size(comm, &n_ranks);
  std::vector<int> send_counts(n_ranks), recv_counts(n_ranks);
  for (int r = 0; r < n_ranks; ++r) send_counts[r] = static_cast<int>(outbox[r].size());
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  return recv_counts;
}

// Receives the records of each rank r but `skip` at records + at[r], sends
// outbox[r] to each rank r but `skip`, and waits for all (-1: none skipped).
// Point to point from each outbox vector: no send buffer is packed first.
template <class T>
void send_and_receive(MPI_Comm comm, const std::vector<std::vector<T>>& outbox, const std::vector<int>& recv_counts,
                      const std::vector<std::size_t>& at, T* records, int skip) {
  static_assert(std::is_trivially_copyable_v<T>);
  const auto n_ranks = static_cast<int>(recv_counts.size());
  const RecordType record(sizeof(T));
  std::vector<MPI_Request> requests;
  requests.reserve(2 * n_ranks);
  for (int r = 0; r < n_ranks; ++r)
    if (r != skip && recv_counts[r] > 0)
      MPI_Irecv(records + at[r], recv_counts[r], record.get(), r, 0, comm, &requests.emplace_back());
  for (int r = 0; r < n_ranks; ++r)
    if (r != skip && !outbox[r].empty())
      MPI_Isend(outbox[r].data(), static_cast<int>(outbox[r].size()), record.get(), r, 0, comm,
                &requests.emplace_back());
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

}  // namespace detail

/// Sends outbox[r] to rank r (counted in records, so large exchanges do not
/// overflow MPI's int byte counts), into one receive buffer. Into `in`,
/// whose buffers are reused: a round after round exchange keeps its pages
/// (unless a round needs less than half of them). Collective.
template <class T>
void all_to_all(MPI_Comm comm, const std::vector<std::vector<T>>& outbox, Received<T>& in) {
  const std::vector<int> recv_counts = detail::receive_counts(comm, outbox);
  const std::size_t n_ranks = recv_counts.size();
  in.offset.assign(n_ranks + 1, 0);
  for (std::size_t r = 0; r < n_ranks; ++r) in.offset[r + 1] = in.offset[r] + static_cast<std::size_t>(recv_counts[r]);
  // Exactly the records (resize() would double them), anew for a round less
  // than half as large: the pages it no longer needs go.
  if (in.records.capacity() < in.offset[n_ranks] || in.records.capacity() / 2 > in.offset[n_ranks]) {
    std::vector<T>().swap(in.records);
    in.records.reserve(in.offset[n_ranks]);
  }
  in.records.resize(in.offset[n_ranks]);
  detail::send_and_receive(comm, outbox, recv_counts, in.offset, in.records.data(), -1);
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

/// For a receiver to whom the order of the senders does not matter (the
/// matrix's rounds): the records begin with this rank's own box, taken
/// without a copy, and go on with the other ranks' in rank order; `offset`
/// holds the bounds of these runs, in that order (offset[1]: the own
/// records' end). The own box should have room for all the records, or it
/// grows and they are copied once; outbox[rank] gets the old records'
/// buffer. Alone, the same as all_to_all_taking. Collective.
template <class T>
void all_to_all_own_first(MPI_Comm comm, std::vector<std::vector<T>>& outbox, Received<T>& in) {
  int rank = 0, n_ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &n_ranks);
  if (n_ranks == 1) return all_to_all_taking(comm, outbox, in);
  const std::vector<int> recv_counts = detail::receive_counts(comm, outbox);
  const auto own = static_cast<std::size_t>(rank);
  std::vector<std::size_t> at(recv_counts.size(), 0);  // where each sender's records go
  in.offset.assign(1, 0);
  in.offset.push_back(outbox[own].size());
  for (std::size_t r = 0; r < recv_counts.size(); ++r) {
    if (r == own) continue;
    at[r] = in.offset.back();
    in.offset.push_back(at[r] + static_cast<std::size_t>(recv_counts[r]));
  }
  in.records.swap(outbox[own]);
  in.records.resize(in.offset.back());
  detail::send_and_receive(comm, outbox, recv_counts, at, in.records.data(), rank);
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

/// Element-wise exact sums over all ranks, each rounded to double once. Collective.
std::vector<double> sum_all(MPI_Comm comm, const std::vector<ExactSum>& sums);

template <class T>
T sum_all(MPI_Comm comm, T value) {
  return sum_all(comm, std::vector<T>{value})[0];
}

}  // namespace tdcone::mpi
