#pragma once
// Private to src/hdf5: the state of an OutputFile. Its failure protocol (every
// rank agrees on each step's outcome, an error drops the partial file) is in
// failure_protocol.cpp; the collective writes and their read-back check in
// collective_write.cpp; the public methods in output_file.cpp.
#include <xxhash.h>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "h5handle.hpp"
#include "h5properties.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/io/output_lock.hpp"

namespace tdcone::hdf5 {

struct OutputFile::Impl {
  std::optional<io::OutputLock> lock;  // rank 0's, released last
  std::optional<io::PartialOnSignal> on_signal;
  std::string path;
  std::string partial;
  bool force = false;
  Compression compression = Compression::deflate;
  MPI_Comm comm = MPI_COMM_NULL;  // our duplicate of the caller's communicator
  int rank = 0;
  detail::Handle file;
  bool created = false;  // the partial file may exist and is ours to remove
  bool committed = false;
  std::optional<mpi::AbortCleanup> remove_on_abort;
  std::string failure;  // the last error agreed on, for stop_job

  // What this rank wrote to each dataset, read back before the rename: an
  // MPI-IO layer can drop a write on a full disk without reporting it (Open
  // MPI's ompio collective writes do), and the file would look complete.
  struct WrittenRows {
    std::string dataset;
    detail::Handle memory_type;  // a copy of the type the rows were written with
    std::uint64_t offset = 0, count = 0;
    XXH64_hash_t hash = 0;
  };
  std::vector<WrittenRows> written;

  ~Impl();  // never throws: closes what is open, drops an unfinished file

  // ---- the failure protocol (failure_protocol.cpp) ----

  /// Removes the partial file's name and its contents (any rank may): a
  /// disk that filled up gets its space back, so HDF5's closing writes succeed.
  void drop_partial() const;

  /// After an error: drop the partial file and close it on every rank. The
  /// error reaches the ranks at different points (a rank-local exception, or
  /// the agreement after a failed write), so they first agree that all of
  /// them are here; a rank whose partners never come stops the job.
  void abandon();

  /// Closes the file (collective). HDF5 cannot be shut down cleanly after a
  /// failed close (it would close the file again inside MPI_Finalize, with
  /// collectives of its own), so a failure here stops the job.
  void close_or_abort();

  /// agreed() over this file's ranks, remembering the error: if the file then
  /// cannot be closed, the job stops here and that error must still be told.
  void agree(bool here, const std::function<void()>& step);

  /// Prints the error agreed on and `message`, drops the partial file and aborts the job.
  [[noreturn]] void stop_job(const std::string& message) const;

  /// Every collective call on the file starts here: the ranks agree that the
  /// file is open and that none of them failed since the last call (an error
  /// between two calls, on one rank only, reaches the others here, not in a
  /// collective call of HDF5 that would wait for the failed rank forever).
  void enter(const std::string& object);

  // ---- the collective writes (collective_write.cpp) ----

  /// A scalar attribute, or (`elements` given) a 1-D array of that many.
  void write_attribute(const std::string& object, const std::string& name, hid_t type, const void* value,
                       std::optional<hsize_t> elements = std::nullopt);

  /// Checks (collectively) that every rank's rows fit the same `total`, and
  /// returns the maximum of `width` over the ranks.
  std::uint64_t agree_layout(const std::string& what, std::uint64_t count, std::uint64_t offset, std::uint64_t total,
                             std::uint64_t width) const;

  /// Creates `dataset` with `total` rows and writes this rank's `count` rows
  /// at `offset` (collective; a rank without rows writes an empty selection).
  void write_dataset(const std::string& dataset, hid_t file_type, hid_t memory_type, const void* data,
                     std::uint64_t count, std::uint64_t offset, std::uint64_t total);

  /// Reads back this rank's rows of every dataset from the closed file and
  /// compares them with what was written.
  void verify_written() const;

  /// A numeric column: write_dataset with the types of T.
  template <class T>
  void write_numbers(const std::string& dataset, std::span<const T> rows, std::uint64_t offset, std::uint64_t total) {
    enter("dataset " + dataset);
    agree_layout("dataset " + dataset, rows.size(), offset, total, 0);
    write_dataset(dataset, detail::ColumnType<T>::file(), detail::ColumnType<T>::memory(), rows.data(), rows.size(),
                  offset, total);
  }
};

}  // namespace tdcone::hdf5
