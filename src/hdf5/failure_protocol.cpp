// The failure protocol of OutputFile: the ranks agree on the outcome of every
// step, and an error anywhere drops the partial file on every rank, or stops
// the job when the file cannot be closed.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "output_file_impl.hpp"
#include "tdcone/core/error.hpp"

namespace tdcone::hdf5 {

namespace {

/// Runs `step` on the ranks where `here` holds and makes the outcome everyone's:
/// if it throws anywhere, the lowest such rank throws its error again, and
/// every other rank a CollectiveError with that message, so that no rank goes
/// on to a collective call the others have left (a disk that fills up under
/// one rank's write).
void agreed(MPI_Comm comm, bool here, const std::function<void()>& step) {
  std::string message;
  const int status = here ? mpi::run_local_step(step, message) : 0;  // 2 for a UsageError, else 1
  const auto failure = mpi::first_failure(comm, status, message);
  if (!failure) return;
  if (!failure->here) throw mpi::collective_error(*failure);
  if (failure->status == 2) throw UsageError(failure->message);
  throw IoError(failure->message);
}

}  // namespace

OutputFile::Impl::~Impl() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) {
    file.forget();
    return;
  }
  if (file.valid())
    abandon();
  else if (created && !committed && rank == 0)
    drop_partial();  // H5Fcreate failed
  if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

void OutputFile::Impl::drop_partial() const {
  if (::truncate(partial.c_str(), 0) == 0) ::unlink(partial.c_str());
}

void OutputFile::Impl::abandon() {
  if (created && rank == 0) drop_partial();
  for (int round = 0; round < 2; ++round) {
    // Ranks elsewhere see this as a failure at their next agreement and come here too.
    const auto all = mpi::first_failure(comm, 1, cat(partial, " abandoned after an error"));
    if (all && all->everywhere) {
      if (created && rank == 0) drop_partial();
      close_or_abort();
      return;
    }
  }
  stop_job(cat("cannot close ", partial, " on every rank after an error"));
}

void OutputFile::Impl::close_or_abort() {
  if (file.close() < 0) stop_job(cat("cannot close ", partial, ": ", detail::hdf5_reason()));
}

void OutputFile::Impl::agree(bool here, const std::function<void()>& step) {
  try {
    agreed(comm, here, step);
  } catch (const std::exception& e) {
    failure = e.what();
    throw;
  }
}

void OutputFile::Impl::stop_job(const std::string& message) const {
  if (!failure.empty()) std::fprintf(stderr, "tdcone: rank %d: error: %s\n", rank, failure.c_str());
  std::fprintf(stderr, "tdcone: rank %d: error: %s; stopping the job\n", rank, message.c_str());
  drop_partial();
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

void OutputFile::Impl::enter(const std::string& object) {
  agree(true, [&] {
    if (!file.valid()) throw IoError(cat("cannot write ", object, ": ", path, " is already committed or closed"));
  });
}

}  // namespace tdcone::hdf5
