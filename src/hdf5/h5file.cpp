// The parallel output file (OutputFile), its target check, and the serial
// Reader. HDF5 C API behind RAII handles (h5handle.hpp); every negative HDF5
// return becomes an IoError naming the object and the file.
#include "tdcone/hdf5/h5file.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>

#include <xxhash.h>

#include "h5handle.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/zstd_filter.hpp"
#include "tdcone/io/output_lock.hpp"
#include "tdcone/core/guard.hpp"

namespace tdcone::h5 {

namespace fs = std::filesystem;
using detail::check;
using detail::Handle;
using detail::own;

namespace {

constexpr hsize_t kChunkRows = 65536;
constexpr unsigned kDeflateLevel = 4;
constexpr unsigned kZstdLevel = 3;

/// What a property or call applies to, for error messages.
struct Where {
  std::string object;  // "dataset /pairs/tdcone", "group /pairs", "the file"
  std::string file;
};

// ---- property objects: each applies one setting to a property list ----

struct MpioFileAccess {  // file access: MPI-IO driver over `comm`
  MPI_Comm comm;
  void apply(hid_t fapl, const Where& where) const {
    check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "set MPI-IO file access for", where.object, where.file);
  }
};

struct CollectiveMetadata {  // file access: metadata reads and writes done collectively
  void apply(hid_t fapl, const Where& where) const {
    check(H5Pset_all_coll_metadata_ops(fapl, true), "set collective metadata reads for", where.object, where.file);
    check(H5Pset_coll_metadata_write(fapl, true), "set collective metadata writes for", where.object, where.file);
  }
};

struct NoFileLocking {  // file access: a read-back where the file system has no locks (Lustre without flock)
  void apply(hid_t fapl, const Where& where) const {
    check(H5Pset_file_locking(fapl, false, true), "turn off file locking for", where.object, where.file);
  }
};

struct TrackCreationOrder {  // file or group creation: links listed in creation order
  void apply(hid_t cpl, const Where& where) const {
    check(H5Pset_link_creation_order(cpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
          "track link creation order for", where.object, where.file);
  }
};

struct Chunking {  // dataset creation: 1-D chunks of `rows`
  hsize_t rows;
  void apply(hid_t dcpl, const Where& where) const {
    check(H5Pset_chunk(dcpl, 1, &rows), "set chunking for", where.object, where.file);
  }
};

struct ParallelAllocation {  // dataset creation: what parallel HDF5 1.10 wants
  void apply(hid_t dcpl, const Where& where) const {
    check(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "set fill time for", where.object, where.file);
    check(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "set allocation time for", where.object, where.file);
  }
};

struct Filters {  // dataset creation: shuffle + deflate(4) | shuffle + zstd(3) | nothing
  Compression compression;
  void apply(hid_t dcpl, const Where& where) const {
    if (compression == Compression::none) return;
    check(H5Pset_shuffle(dcpl), "set the shuffle filter for", where.object, where.file);
    if (compression == Compression::deflate) {
      check(H5Pset_deflate(dcpl, kDeflateLevel), "set the deflate filter for", where.object, where.file);
    } else {
      const unsigned level = kZstdLevel;
      check(H5Pset_filter(dcpl, kZstdFilterId, H5Z_FLAG_MANDATORY, 1, &level), "set the zstd filter for", where.object,
            where.file);
    }
  }
};

struct CollectiveTransfer {  // data transfer: collective MPI-IO (required for filtered datasets)
  void apply(hid_t dxpl, const Where& where) const {
    check(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "set collective transfer for", where.object, where.file);
  }
};

template <class... Properties>
Handle property_list(hid_t cls, const Where& where, const Properties&... properties) {
  Handle plist = own(H5Pcreate(cls), H5Pclose, "create a property list for", where.object, where.file);
  (properties.apply(plist.get(), where), ...);
  return plist;
}

// ---- column types ----

template <class T>
struct ColumnType;
template <>
struct ColumnType<std::uint64_t> {
  static hid_t memory() { return H5T_NATIVE_UINT64; }
  static hid_t file() { return H5T_STD_U64LE; }
};
template <>
struct ColumnType<double> {
  static hid_t memory() { return H5T_NATIVE_DOUBLE; }
  static hid_t file() { return H5T_IEEE_F64LE; }
};
template <>
struct ColumnType<std::uint32_t> {
  static hid_t memory() { return H5T_NATIVE_UINT32; }
  static hid_t file() { return H5T_STD_U32LE; }
};
template <>
struct ColumnType<std::uint8_t> {
  static hid_t memory() { return H5T_NATIVE_UINT8; }
  static hid_t file() { return H5T_STD_U8LE; }
};

/// Fixed-length, null-padded UTF-8 string type of `width` bytes (at least 1).
Handle string_type(std::size_t width, const Where& where) {
  Handle type = own(H5Tcopy(H5T_C_S1), H5Tclose, "create a string type for", where.object, where.file);
  check(H5Tset_size(type.get(), std::max<std::size_t>(width, 1)), "size the string type of", where.object, where.file);
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "set string padding for", where.object, where.file);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set UTF-8 for", where.object, where.file);
  return type;
}

/// Variable-length, null-terminated UTF-8 string type.
Handle variable_string_type(const Where& where) {
  Handle type = own(H5Tcopy(H5T_C_S1), H5Tclose, "create a string type for", where.object, where.file);
  check(H5Tset_size(type.get(), H5T_VARIABLE), "size the string type of", where.object, where.file);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set UTF-8 for", where.object, where.file);
  return type;
}

// ---- agreement between ranks ----

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

// The shortest text that reads back as the same double.
std::string number_text(double value) {
  if (std::isnan(value)) return "nan";
  char text[40];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

/// The text of one fixed-length string element, without its padding.
std::string unpad(const char* data, std::size_t width, H5T_str_t pad) {
  std::string text(data, width);
  if (pad == H5T_STR_NULLTERM) {
    const auto end = text.find('\0');
    if (end != std::string::npos) text.resize(end);
  } else {
    const char filler = pad == H5T_STR_SPACEPAD ? ' ' : '\0';
    while (!text.empty() && text.back() == filler) text.pop_back();
  }
  return text;
}

}  // namespace

// ============================ check_output_target ============================

void check_output_target(const std::string& path, bool force) {
  if (path.empty()) throw UsageError("output file name is empty");
  std::error_code ec;
  const fs::path target(path);
  const auto status = fs::status(target, ec);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) throw UsageError(cat("output file is a directory: ", path));
    // A device, FIFO or socket is not ours to replace by a file, --force or not.
    if (!fs::is_regular_file(status))
      throw UsageError(cat("output file is not a regular file: ", path, " (--force replaces regular files only)"));
    if (!force) throw UsageError(cat("output file exists: ", path, " (use --force to overwrite)"));
  }
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) throw UsageError(cat("output directory does not exist: ", dir.string()));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError(cat("output directory is not writable: ", dir.string()));
}

// ================================ OutputFile =================================

struct OutputFile::Impl {
  std::optional<io::OutputLock> lock;  // rank 0's, released last
  std::optional<io::PartialOnSignal> on_signal;
  std::string path;
  std::string partial;
  bool force = false;
  Compression compression = Compression::deflate;
  MPI_Comm comm = MPI_COMM_NULL;  // our duplicate of the caller's communicator
  int rank = 0;
  Handle file;
  bool created = false;  // the partial file may exist and is ours to remove
  bool committed = false;
  std::optional<mpi::AbortCleanup> remove_on_abort;
  std::string failure;  // the last error agreed on, for stop_job

  // What this rank wrote to each dataset, read back before the rename: an
  // MPI-IO layer can drop a write on a full disk without reporting it (Open
  // MPI's ompio collective writes do), and the file would look complete.
  struct WrittenRows {
    std::string dataset;
    Handle memory_type;  // a copy of the type the rows were written with
    std::uint64_t offset = 0, count = 0;
    XXH64_hash_t hash = 0;
  };
  std::vector<WrittenRows> written;

  ~Impl() {  // never throws: close what is open, drop an unfinished file
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

  /// Removes the partial file's name and its contents (any rank may): a
  /// disk that filled up gets its space back, so HDF5's closing writes succeed.
  void drop_partial() const {
    if (::truncate(partial.c_str(), 0) == 0) ::unlink(partial.c_str());
  }

  /// After an error: drop the partial file and close it on every rank. The
  /// error reaches the ranks at different points (a rank-local exception, or
  /// the agreement after a failed write), so they first agree that all of
  /// them are here; a rank whose partners never come stops the job.
  void abandon() {
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

  /// Closes the file (collective). HDF5 cannot be shut down cleanly after a
  /// failed close (it would close the file again inside MPI_Finalize, with
  /// collectives of its own), so a failure here stops the job.
  void close_or_abort() {
    if (file.close() < 0) stop_job(cat("cannot close ", partial, ": ", detail::hdf5_reason()));
  }

  /// agreed() over this file's ranks, remembering the error: if the file then
  /// cannot be closed, the job stops here and that error must still be told.
  void agree(bool here, const std::function<void()>& step) {
    try {
      agreed(comm, here, step);
    } catch (const std::exception& e) {
      failure = e.what();
      throw;
    }
  }

  [[noreturn]] void stop_job(const std::string& message) const {
    if (!failure.empty()) std::fprintf(stderr, "tdcone: rank %d: error: %s\n", rank, failure.c_str());
    std::fprintf(stderr, "tdcone: rank %d: error: %s; stopping the job\n", rank, message.c_str());
    drop_partial();
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();  // MPI_Abort does not return
  }

  /// Every collective call on the file starts here: the ranks agree that the
  /// file is open and that none of them failed since the last call (an error
  /// between two calls, on one rank only, reaches the others here, not in a
  /// collective call of HDF5 that would wait for the failed rank forever).
  void enter(const std::string& object) {
    agree(true, [&] {
      if (!file.valid()) throw IoError(cat("cannot write ", object, ": ", path, " is already committed or closed"));
    });
  }

  /// A scalar attribute, or (`elements` given) a 1-D array of that many.
  void write_attribute(const std::string& object, const std::string& name, hid_t type, const void* value,
                       std::optional<hsize_t> elements = std::nullopt) {
    const std::string what = cat("attribute '", name, "' of ", object);
    enter(what);
    Handle target = own(H5Oopen(file.get(), object.c_str(), H5P_DEFAULT), H5Oclose, "open",
                        cat("object ", object, " for attribute '", name, "'"), partial);
    const htri_t exists = H5Aexists(target.get(), name.c_str());
    check(exists, "look up", what, partial);
    if (exists > 0) check(H5Adelete(target.get(), name.c_str()), "replace", what, partial);
    Handle space = own(elements ? H5Screate_simple(1, &*elements, nullptr) : H5Screate(H5S_SCALAR), H5Sclose,
                       "create the dataspace of", what, partial);
    Handle attribute = own(H5Acreate2(target.get(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                           H5Aclose, "create", what, partial);
    check(H5Awrite(attribute.get(), type, value), "write", what, partial);
    check(attribute.close(), "close", what, partial);
  }

  /// Checks (collectively) that every rank's rows fit the same `total`, and
  /// returns the maximum of `width` over the ranks.
  std::uint64_t agree_layout(const std::string& what, std::uint64_t count, std::uint64_t offset, std::uint64_t total,
                             std::uint64_t width) const {
    const std::uint64_t outside = offset > total || count > total - offset ? 1 : 0;
    std::uint64_t local[4] = {outside, total, std::numeric_limits<std::uint64_t>::max() - total, width};
    std::uint64_t global[4] = {};
    MPI_Allreduce(local, global, 4, MPI_UINT64_T, MPI_MAX, comm);
    if (global[1] != total || global[2] != local[2])
      throw IoError(cat("cannot write ", what, " in ", partial, ": ranks disagree on its total row count"));
    if (global[0] != 0)
      throw IoError(cat("cannot write ", what, " in ", partial, ": rows of ",
                        outside ? cat("rank ", rank, " [", offset, ", ", offset + count, ")") : std::string("a rank"),
                        " fall outside its ", total, " rows"));
    return global[3];
  }

  /// Creates `dataset` with `total` rows and writes this rank's `count` rows
  /// at `offset` (collective; a rank without rows writes an empty selection).
  void write_dataset(const std::string& dataset, hid_t file_type, hid_t memory_type, const void* data,
                     std::uint64_t count, std::uint64_t offset, std::uint64_t total) {
    const std::string what = "dataset " + dataset;
    const Where where{what, partial};
    hsize_t dims = total;
    hsize_t max_dims = total == 0 ? H5S_UNLIMITED : total;  // a 0-row chunked dataset needs room to grow
    Handle space = own(H5Screate_simple(1, &dims, &max_dims), H5Sclose, "create the dataspace of", what, partial);
    Handle dcpl = property_list(H5P_DATASET_CREATE, where, Chunking{std::clamp<hsize_t>(total, 1, kChunkRows)},
                                ParallelAllocation{}, Filters{compression});
    Handle dset =
        own(H5Dcreate2(file.get(), dataset.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
            H5Dclose, "create", what, partial);
    if (total > 0) {  // same on every rank (agreed), so either all write or none
      Handle file_space = own(H5Dget_space(dset.get()), H5Sclose, "get the dataspace of", what, partial);
      hsize_t memory_rows = std::max<std::uint64_t>(count, 1);
      Handle memory_space =
          own(H5Screate_simple(1, &memory_rows, nullptr), H5Sclose, "create a memory dataspace for", what, partial);
      if (count > 0) {
        hsize_t start = offset, rows = count;
        check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &rows, nullptr), "select rows of",
              what, partial);
      } else {
        check(H5Sselect_none(file_space.get()), "select no rows of", what, partial);
        check(H5Sselect_none(memory_space.get()), "select no rows of", what, partial);
      }
      Handle dxpl = property_list(H5P_DATASET_XFER, where, CollectiveTransfer{});
      const char dummy = 0;  // H5Dwrite wants a buffer even for an empty selection
      agree(true, [&] {  // the data may reach the disk from some ranks only
        check(H5Dwrite(dset.get(), memory_type, memory_space.get(), file_space.get(), dxpl.get(),
                       count > 0 ? data : &dummy),
              "write", what, partial);
      });
      if (count > 0)
        written.push_back({dataset, own(H5Tcopy(memory_type), H5Tclose, "copy the type of", what, partial), offset,
                           count, XXH3_64bits(data, count * H5Tget_size(memory_type))});
    }
    check(dset.close(), "close", what, partial);
  }

  /// Reads back this rank's rows of every dataset from the closed file and
  /// compares them with what was written.
  void verify_written() const {
    const Where where{"the file", partial};
    const Handle fapl = property_list(H5P_FILE_ACCESS, where, NoFileLocking{});
    const Handle reopened = own(H5Fopen(partial.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose, "reopen", where.object,
                                partial);
    std::vector<char> rows;
    for (const WrittenRows& w : written) {
      const std::string what = "dataset " + w.dataset;
      const Handle dset = own(H5Dopen2(reopened.get(), w.dataset.c_str(), H5P_DEFAULT), H5Dclose, "reopen", what, partial);
      const Handle file_space = own(H5Dget_space(dset.get()), H5Sclose, "get the dataspace of", what, partial);
      hsize_t start = w.offset, count = w.count;
      check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr), "select rows of",
            what, partial);
      const Handle memory_space =
          own(H5Screate_simple(1, &count, nullptr), H5Sclose, "create a memory dataspace for", what, partial);
      rows.resize(w.count * H5Tget_size(w.memory_type.get()));
      check(H5Dread(dset.get(), w.memory_type.get(), memory_space.get(), file_space.get(), H5P_DEFAULT, rows.data()),
            "read back", what, partial);
      if (XXH3_64bits(rows.data(), rows.size()) != w.hash)
        throw IoError(cat(what, " reads back different from what was written (rows ", w.offset, " to ",
                          w.offset + w.count - 1, ")"));
    }
  }

  template <class T>
  void write_numbers(const std::string& dataset, std::span<const T> rows, std::uint64_t offset, std::uint64_t total) {
    enter("dataset " + dataset);
    agree_layout("dataset " + dataset, rows.size(), offset, total, 0);
    write_dataset(dataset, ColumnType<T>::file(), ColumnType<T>::memory(), rows.data(), rows.size(), offset, total);
  }
};

OutputFile::OutputFile(const std::string& path, bool force, MPI_Comm comm, Compression compression)
    : impl_(std::make_unique<Impl>()) {
  Impl& f = *impl_;
  f.path = path;
  f.force = force;
  f.compression = compression;
  detail::silence_hdf5_errors();
  MPI_Comm_dup(comm, &f.comm);
  MPI_Comm_rank(f.comm, &f.rank);
  // A name of this job's own: two jobs writing one output (a re-submitted
  // array task) never share a file; the lock refuses the second one at once.
  f.agree(f.rank == 0, [&] {
    check_output_target(path, force);
    f.lock.emplace(path);
    f.partial = io::create_partial(path);
  });
  f.created = true;
  int length = static_cast<int>(f.partial.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, f.comm);
  f.partial.resize(static_cast<std::size_t>(length));
  MPI_Bcast(f.partial.data(), length, MPI_CHAR, 0, f.comm);
  f.on_signal.emplace(f.partial, f.rank);
  if (compression == Compression::zstd) register_zstd_filter();

  const Where where{"the file", f.partial};
  Handle fcpl = property_list(H5P_FILE_CREATE, where, TrackCreationOrder{});
  Handle fapl = property_list(H5P_FILE_ACCESS, where, MpioFileAccess{f.comm}, CollectiveMetadata{});
  f.remove_on_abort.emplace([partial = f.partial] { ::unlink(partial.c_str()); });
  hid_t id = -1;
  f.agree(true, [&] {
    id = H5Fcreate(f.partial.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get());
    if (id < 0) throw IoError(cat("cannot create ", f.partial, ": ", detail::hdf5_reason()));
  });
  f.file = Handle(id, H5Fclose);
}

OutputFile::~OutputFile() = default;  // Impl::~Impl closes and removes an uncommitted file

void OutputFile::create_group(const std::string& group) {
  Impl& f = *impl_;
  const std::string what = "group " + group;
  f.enter(what);
  Handle gcpl = property_list(H5P_GROUP_CREATE, Where{what, f.partial}, TrackCreationOrder{});
  Handle handle = own(H5Gcreate2(f.file.get(), group.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose, "create",
                      what, f.partial);
  check(handle.close(), "close", what, f.partial);
}

void OutputFile::set_attribute(const std::string& object, const std::string& name, double value) {
  impl_->write_attribute(object, name, H5T_NATIVE_DOUBLE, &value);
}

void OutputFile::set_attribute(const std::string& object, const std::string& name, std::uint64_t value) {
  impl_->write_attribute(object, name, H5T_NATIVE_UINT64, &value);
}

void OutputFile::set_attribute(const std::string& object, const std::string& name, std::int64_t value) {
  impl_->write_attribute(object, name, H5T_NATIVE_INT64, &value);
}

void OutputFile::set_attribute(const std::string& object, const std::string& name, const std::string& value) {
  // Variable-length UTF-8: h5py returns `str` for such an attribute (bytes for
  // a fixed-length one). An attribute is metadata, written once for all ranks,
  // so the variable-length type is no trouble for parallel HDF5.
  const Handle type = variable_string_type(Where{cat("attribute '", name, "' of ", object), impl_->partial});
  const char* text = value.c_str();
  impl_->write_attribute(object, name, type.get(), &text);
}

void OutputFile::set_attribute(const std::string& object, const std::string& name,
                               std::span<const std::uint64_t> values) {
  const std::uint64_t none = 0;  // HDF5 wants a buffer even for no elements
  impl_->write_attribute(object, name, H5T_NATIVE_UINT64, values.empty() ? &none : values.data(), values.size());
}

void OutputFile::write_column(const std::string& dataset, std::span<const std::uint64_t> rows, std::uint64_t offset,
                              std::uint64_t total) {
  impl_->write_numbers(dataset, rows, offset, total);
}

void OutputFile::write_column(const std::string& dataset, std::span<const double> rows, std::uint64_t offset,
                              std::uint64_t total) {
  impl_->write_numbers(dataset, rows, offset, total);
}

void OutputFile::write_column(const std::string& dataset, std::span<const std::uint32_t> rows, std::uint64_t offset,
                              std::uint64_t total) {
  impl_->write_numbers(dataset, rows, offset, total);
}

void OutputFile::write_column(const std::string& dataset, std::span<const std::uint8_t> rows, std::uint64_t offset,
                              std::uint64_t total) {
  impl_->write_numbers(dataset, rows, offset, total);
}

// String columns stay fixed-length (the longest row's width, null-padded,
// marked UTF-8) rather than variable-length:
// - parallel HDF5 1.10 writes no variable-length data from several ranks, and
//   filters (our deflate/zstd) need collective writes; a variable-length
//   column would have to be gathered to rank 0 and written serially after the
//   parallel file is closed, its strings uncompressed in the global heap (some
//   16 bytes of heap overhead per row on top of the text);
// - h5py (3.x) reads a string *dataset* as bytes either way, and
//   `ds.asstr()[...]` gives `str` for both layouts (checked with h5py 3.7:
//   fixed `|S8` and variable `object` alike), so variable-length would buy
//   nothing there. String *attributes* are variable-length (set_attribute),
//   which h5py does return as `str`.
// Reader reads both layouts.
void OutputFile::write_column(const std::string& dataset, const std::vector<std::string>& rows, std::uint64_t offset,
                              std::uint64_t total) {
  Impl& f = *impl_;
  const std::string what = "dataset " + dataset;
  f.enter(what);
  std::uint64_t longest = 0;
  for (const auto& row : rows) longest = std::max<std::uint64_t>(longest, row.size());
  const std::size_t width = std::max<std::uint64_t>(f.agree_layout(what, rows.size(), offset, total, longest), 1);
  std::vector<char> packed(rows.size() * width, '\0');
  for (std::size_t i = 0; i < rows.size(); ++i) std::copy(rows[i].begin(), rows[i].end(), packed.begin() + i * width);
  const Handle type = string_type(width, Where{what, f.partial});
  f.write_dataset(dataset, type.get(), type.get(), packed.data(), rows.size(), offset, total);
}

void OutputFile::commit() {
  Impl& f = *impl_;
  if (f.committed) return;
  f.enter("the file");
  f.close_or_abort();  // collective; the data and metadata reach the disk here
  f.agree(true, [&] {
    try {
      f.verify_written();
    } catch (const IoError& e) {
      throw IoError(cat(f.path, " was not written correctly (a full disk, or an I/O error the MPI-IO layer did not "
                                "report); nothing was kept: ", e.what()));
    }
  });
  f.agree(f.rank == 0, [&] {
    check_output_target(f.path, f.force);  // again: something may have appeared there meanwhile
    std::error_code ec;
    fs::rename(f.partial, f.path, ec);  // replaces an existing file atomically
    if (ec) throw IoError(cat("cannot rename ", f.partial, " to ", f.path, ": ", ec.message()));
  });
  f.committed = true;
  f.on_signal->kept();
  MPI_Barrier(f.comm);
}

// ================================== Reader ===================================

struct Reader::Impl {
  std::string path;
  Handle file;

  Handle open_object(const std::string& object) const {
    return own(H5Oopen(file.get(), object.c_str(), H5P_DEFAULT), H5Oclose, "open", object, path);
  }

  Handle open_attribute(const std::string& object, const std::string& name) const {
    const Handle target = open_object(object);
    Handle attribute = own(H5Aopen(target.get(), name.c_str(), H5P_DEFAULT), H5Aclose, "open",
                           cat("attribute '", name, "' of ", object), path);
    return attribute;
  }

  Handle open_dataset(const std::string& dataset) const {
    return own(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose, "open", "dataset " + dataset, path);
  }

  /// The stored type of an attribute or dataset, with its class.
  struct TypeInfo {
    Handle type;
    H5T_class_t cls = H5T_NO_CLASS;
    bool is_signed = false;
  };
  TypeInfo type_of(hid_t type_id, const std::string& what) const {
    TypeInfo info;
    info.type = own(type_id, H5Tclose, "get the type of", what, path);
    info.cls = H5Tget_class(info.type.get());
    if (info.cls == H5T_NO_CLASS) detail::fail("classify the type of", what, path);
    if (info.cls == H5T_INTEGER) {
      const H5T_sign_t sign = H5Tget_sign(info.type.get());
      if (sign == H5T_SGN_ERROR) detail::fail("get the sign of", what, path);
      info.is_signed = sign != H5T_SGN_NONE;
    }
    return info;
  }

  std::size_t element_count(hid_t space_id, const std::string& what) const {
    const Handle space = own(space_id, H5Sclose, "get the dataspace of", what, path);
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n < 0) detail::fail("count the elements of", what, path);
    return static_cast<std::size_t>(n);
  }

  std::string type_name(const TypeInfo& info, const std::string& what) const {
    const std::size_t bytes = H5Tget_size(info.type.get());
    switch (info.cls) {
      case H5T_INTEGER:
        return cat(info.is_signed ? "i" : "u", 8 * bytes);
      case H5T_FLOAT:
        return cat("f", 8 * bytes);
      case H5T_STRING: {
        const htri_t variable = H5Tis_variable_str(info.type.get());
        check(variable, "inspect the string type of", what, path);
        const char* cset = H5Tget_cset(info.type.get()) == H5T_CSET_UTF8 ? "UTF-8" : "ASCII";
        return variable > 0 ? cat("string (variable-length, ", cset, ")") : cat("string (fixed ", bytes, " bytes, ", cset, ")");
      }
      default:
        return "other";
    }
  }

  [[noreturn]] void wrong_type(const std::string& what, const char* expected) const {
    throw IoError(cat(what, " in ", path, " is not ", expected));
  }

  // ---- attributes ----

  /// Opens a one-element attribute and returns it with its type.
  std::pair<Handle, TypeInfo> scalar_attribute(const std::string& object, const std::string& name) const {
    const std::string what = cat("attribute '", name, "' of ", object);
    Handle attribute = open_attribute(object, name);
    if (element_count(H5Aget_space(attribute.get()), what) != 1) wrong_type(what, "a single value");
    TypeInfo info = type_of(H5Aget_type(attribute.get()), what);
    return {std::move(attribute), std::move(info)};
  }

  template <class T>
  T read_attribute(hid_t attribute, hid_t memory_type, const std::string& what) const {
    T value{};
    check(H5Aread(attribute, memory_type, &value), "read", what, path);
    return value;
  }

  std::string read_string_attribute(hid_t attribute, const TypeInfo& info, const std::string& what) const {
    const htri_t variable = H5Tis_variable_str(info.type.get());
    check(variable, "inspect the string type of", what, path);
    if (variable > 0) {
      const Handle memory = own(H5Tcopy(H5T_C_S1), H5Tclose, "create a string type for", what, path);
      check(H5Tset_size(memory.get(), H5T_VARIABLE), "size the string type of", what, path);
      // HDF5 converts no string between ASCII and UTF-8: read in the stored character set.
      check(H5Tset_cset(memory.get(), H5Tget_cset(info.type.get())), "set the character set for", what, path);
      char* text = nullptr;
      check(H5Aread(attribute, memory.get(), &text), "read", what, path);
      std::string value = text != nullptr ? text : "";
      H5free_memory(text);
      return value;
    }
    const std::size_t width = H5Tget_size(info.type.get());
    if (width == 0) detail::fail("get the size of", what, path);
    std::vector<char> buffer(width);
    check(H5Aread(attribute, info.type.get(), buffer.data()), "read", what, path);
    return unpad(buffer.data(), width, H5Tget_strpad(info.type.get()));
  }

  // ---- datasets ----

  std::vector<std::string> read_string_dataset(hid_t dset, const TypeInfo& info, std::size_t n,
                                               const std::string& what) const {
    std::vector<std::string> rows;
    if (n == 0) return rows;
    rows.reserve(n);
    const htri_t variable = H5Tis_variable_str(info.type.get());
    check(variable, "inspect the string type of", what, path);
    if (variable > 0) {
      const Handle memory = own(H5Tcopy(H5T_C_S1), H5Tclose, "create a string type for", what, path);
      check(H5Tset_size(memory.get(), H5T_VARIABLE), "size the string type of", what, path);
      // HDF5 converts no string between ASCII and UTF-8: read in the stored character set.
      check(H5Tset_cset(memory.get(), H5Tget_cset(info.type.get())), "set the character set for", what, path);
      std::vector<char*> texts(n, nullptr);
      check(H5Dread(dset, memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()), "read", what, path);
      for (char* text : texts) rows.emplace_back(text != nullptr ? text : "");
      const Handle space = own(H5Dget_space(dset), H5Sclose, "get the dataspace of", what, path);
      H5Dvlen_reclaim(memory.get(), space.get(), H5P_DEFAULT, texts.data());
      return rows;
    }
    const std::size_t width = H5Tget_size(info.type.get());
    if (width == 0) detail::fail("get the size of", what, path);
    std::vector<char> buffer(n * width);
    check(H5Dread(dset, info.type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), "read", what, path);
    const H5T_str_t pad = H5Tget_strpad(info.type.get());
    for (std::size_t i = 0; i < n; ++i) rows.push_back(unpad(buffer.data() + i * width, width, pad));
    return rows;
  }

  template <class T>
  std::vector<T> read_numbers(hid_t dset, hid_t memory_type, std::size_t n, const std::string& what) const {
    std::vector<T> rows(n);
    if (n > 0) check(H5Dread(dset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), "read", what, path);
    return rows;
  }

  // Rows [first, first + count) only.
  template <class T>
  std::vector<T> read_rows(hid_t dset, hid_t memory_type, hsize_t first, hsize_t count, const std::string& what) const {
    std::vector<T> rows(count);
    if (count == 0) return rows;
    const Handle file_space = own(H5Dget_space(dset), H5Sclose, "get the dataspace of", what, path);
    check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &first, nullptr, &count, nullptr), "select rows of",
          what, path);
    const Handle memory_space = own(H5Screate_simple(1, &count, nullptr), H5Sclose, "create a memory dataspace for",
                                    what, path);
    check(H5Dread(dset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, rows.data()), "read", what, path);
    return rows;
  }
};

namespace {
// Collects the names of the hard links to objects of `kind` (datasets, groups).
template <H5O_type_t kind>
herr_t collect_objects(hid_t group, const char* name, const H5L_info_t* link, void* data) {
  if (link->type != H5L_TYPE_HARD) return 0;
  H5O_info_t object;
  if (H5Oget_info_by_name2(group, name, &object, H5O_INFO_BASIC, H5P_DEFAULT) < 0) return -1;
  if (object.type == kind) static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}
}  // namespace

Reader::Reader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  detail::silence_hdf5_errors();
  register_zstd_filter();  // so files written with --compression zstd read in-process
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw IoError(cat("cannot open ", path, " as HDF5: ", detail::hdf5_reason()));
  impl_->file = Handle(id, H5Fclose);
}

Reader::~Reader() = default;

bool Reader::exists(const std::string& object) const {
  if (object.empty()) return false;
  // H5Lexists fails on a missing intermediate group: test each prefix in turn.
  std::string prefix;
  std::size_t start = 0;
  while (start <= object.size()) {
    const std::size_t end = std::min(object.find('/', start), object.size());
    if (end > start) {
      prefix += '/';
      prefix.append(object, start, end - start);
      const htri_t found = H5Lexists(impl_->file.get(), prefix.c_str(), H5P_DEFAULT);
      if (found <= 0) {
        if (found < 0) H5Eclear2(H5E_DEFAULT);
        return false;
      }
    }
    start = end + 1;
  }
  return true;  // "/" or every component found
}

namespace {
/// The names `collect` keeps among the links of `group`, in creation order
/// when the file tracks it, else by name.
std::vector<std::string> links(hid_t file, const std::string& path, const std::string& group, H5L_iterate_t collect) {
  const std::string what = "group " + group;
  const Handle handle = own(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose, "open", what, path);
  const Handle gcpl = own(H5Gget_create_plist(handle.get()), H5Pclose, "get the properties of", what, path);
  unsigned order = 0;
  check(H5Pget_link_creation_order(gcpl.get(), &order), "get the link order of", what, path);
  std::vector<std::string> names;
  hsize_t index = 0;
  herr_t status = -1;
  if (order & H5P_CRT_ORDER_TRACKED) {
    status = H5Literate(handle.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, &index, collect, &names);
    if (status < 0) H5Eclear2(H5E_DEFAULT);  // tracked but not indexed: fall back to names
  }
  if (status < 0) {
    names.clear();
    index = 0;
    check(H5Literate(handle.get(), H5_INDEX_NAME, H5_ITER_INC, &index, collect, &names), "list", what, path);
  }
  return names;
}
}  // namespace

std::vector<std::string> Reader::datasets(const std::string& group) const {
  return links(impl_->file.get(), impl_->path, group, collect_objects<H5O_TYPE_DATASET>);
}

std::vector<std::string> Reader::groups(const std::string& group) const {
  return links(impl_->file.get(), impl_->path, group, collect_objects<H5O_TYPE_GROUP>);
}

std::vector<std::string> Reader::attributes(const std::string& object) const {
  const Handle target = impl_->open_object(object);
  std::vector<std::string> names;
  hsize_t index = 0;
  check(H5Aiterate2(target.get(), H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute, &names),
        "list the attributes of", object, impl_->path);
  return names;
}

double Reader::attribute_double(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  if (info.cls != H5T_FLOAT && info.cls != H5T_INTEGER) impl_->wrong_type(what, "a number");
  return impl_->read_attribute<double>(attribute.get(), H5T_NATIVE_DOUBLE, what);
}

std::uint64_t Reader::attribute_uint(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  if (info.cls != H5T_INTEGER) impl_->wrong_type(what, "an integer");
  if (info.is_signed) {
    const auto value = impl_->read_attribute<std::int64_t>(attribute.get(), H5T_NATIVE_INT64, what);
    if (value < 0) impl_->wrong_type(what, "a non-negative integer");
    return static_cast<std::uint64_t>(value);
  }
  return impl_->read_attribute<std::uint64_t>(attribute.get(), H5T_NATIVE_UINT64, what);
}

std::string Reader::attribute_string(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  if (info.cls != H5T_STRING) impl_->wrong_type(what, "a string");
  return impl_->read_string_attribute(attribute.get(), info, what);
}

std::vector<std::uint64_t> Reader::attribute_uints(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const Handle attribute = impl_->open_attribute(object, name);
  const std::size_t n = impl_->element_count(H5Aget_space(attribute.get()), what);
  const auto info = impl_->type_of(H5Aget_type(attribute.get()), what);
  if (info.cls != H5T_INTEGER || info.is_signed) impl_->wrong_type(what, "unsigned integers");
  std::vector<std::uint64_t> values(n);
  if (n > 0) check(H5Aread(attribute.get(), H5T_NATIVE_UINT64, values.data()), "read", what, impl_->path);
  return values;
}

std::string Reader::attribute_type(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const Handle attribute = impl_->open_attribute(object, name);
  const std::size_t n = impl_->element_count(H5Aget_space(attribute.get()), what);
  const auto info = impl_->type_of(H5Aget_type(attribute.get()), what);
  const std::string type = impl_->type_name(info, what);
  return n == 1 ? type : cat(type, "[", n, "]");
}

std::string Reader::dataset_type(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  return impl_->type_name(impl_->type_of(H5Dget_type(dset.get()), what), what);
}

std::size_t Reader::rows(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  return impl_->element_count(H5Dget_space(dset.get()), what);
}

std::string Reader::attribute_text(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  {
    const Handle attribute = impl_->open_attribute(object, name);
    const std::size_t n = impl_->element_count(H5Aget_space(attribute.get()), what);
    if (n != 1) {  // an array of numbers
      const auto info = impl_->type_of(H5Aget_type(attribute.get()), what);
      std::string text = "[";
      if (info.cls == H5T_INTEGER && !info.is_signed) {
        std::vector<std::uint64_t> values(n);
        if (n > 0) check(H5Aread(attribute.get(), H5T_NATIVE_UINT64, values.data()), "read", what, impl_->path);
        for (std::size_t i = 0; i < n; ++i) text += cat(i ? ", " : "", values[i]);
      } else if (info.cls == H5T_INTEGER || info.cls == H5T_FLOAT) {
        std::vector<double> values(n);
        if (n > 0) check(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, values.data()), "read", what, impl_->path);
        for (std::size_t i = 0; i < n; ++i) text += cat(i ? ", " : "", number_text(values[i]));
      } else {
        impl_->wrong_type(what, "a single value or an array of numbers");
      }
      return text + "]";
    }
  }
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  switch (info.cls) {
    case H5T_INTEGER:
      if (info.is_signed)
        return std::to_string(impl_->read_attribute<std::int64_t>(attribute.get(), H5T_NATIVE_INT64, what));
      return std::to_string(impl_->read_attribute<std::uint64_t>(attribute.get(), H5T_NATIVE_UINT64, what));
    case H5T_FLOAT:
      return number_text(impl_->read_attribute<double>(attribute.get(), H5T_NATIVE_DOUBLE, what));
    case H5T_STRING:
      return impl_->read_string_attribute(attribute.get(), info, what);
    default:
      impl_->wrong_type(what, "a number or a string");
  }
}

std::vector<std::uint64_t> Reader::read_uint(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_INTEGER || info.is_signed) impl_->wrong_type(what, "an unsigned integer column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  return impl_->read_numbers<std::uint64_t>(dset.get(), H5T_NATIVE_UINT64, n, what);
}

std::vector<double> Reader::read_double(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_FLOAT && info.cls != H5T_INTEGER) impl_->wrong_type(what, "a numeric column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  return impl_->read_numbers<double>(dset.get(), H5T_NATIVE_DOUBLE, n, what);
}

std::vector<double> Reader::read_double(const std::string& dataset, std::uint64_t first, std::uint64_t count) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_FLOAT && info.cls != H5T_INTEGER) impl_->wrong_type(what, "a numeric column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  if (first > n || count > n - first)
    throw IoError(cat(impl_->path, ": ", what, " has ", n, " rows, not rows ", first, " to ", first + count));
  return impl_->read_rows<double>(dset.get(), H5T_NATIVE_DOUBLE, first, count, what);
}

std::vector<std::string> Reader::read_strings(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_STRING) impl_->wrong_type(what, "a string column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  return impl_->read_string_dataset(dset.get(), info, n, what);
}

std::vector<std::string> Reader::read_text(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  std::vector<std::string> rows;
  rows.reserve(n);
  switch (info.cls) {
    case H5T_INTEGER:
      if (info.is_signed) {
        for (const auto v : impl_->read_numbers<std::int64_t>(dset.get(), H5T_NATIVE_INT64, n, what))
          rows.push_back(std::to_string(v));
      } else {
        for (const auto v : impl_->read_numbers<std::uint64_t>(dset.get(), H5T_NATIVE_UINT64, n, what))
          rows.push_back(std::to_string(v));
      }
      return rows;
    case H5T_FLOAT:
      for (const double v : impl_->read_numbers<double>(dset.get(), H5T_NATIVE_DOUBLE, n, what))
        rows.push_back(number_text(v));
      return rows;
    case H5T_STRING:
      return impl_->read_string_dataset(dset.get(), info, n, what);
    default:
      impl_->wrong_type(what, "a number or string column");
  }
}

Column Reader::read_column(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  Column column;
  switch (info.cls) {
    case H5T_INTEGER:
      if (info.is_signed) {
        column.kind = Column::Kind::signed_integer;
        column.signed_values = impl_->read_numbers<std::int64_t>(dset.get(), H5T_NATIVE_INT64, n, what);
      } else {
        column.kind = Column::Kind::unsigned_integer;
        column.unsigned_values = impl_->read_numbers<std::uint64_t>(dset.get(), H5T_NATIVE_UINT64, n, what);
      }
      return column;
    case H5T_FLOAT:
      column.kind = Column::Kind::real;
      column.real_values = impl_->read_numbers<double>(dset.get(), H5T_NATIVE_DOUBLE, n, what);
      return column;
    case H5T_STRING:
      column.kind = Column::Kind::text;
      column.text_values = impl_->read_string_dataset(dset.get(), info, n, what);
      return column;
    default:
      impl_->wrong_type(what, "a number or string column");
  }
}

std::size_t Column::size() const {
  switch (kind) {
    case Kind::unsigned_integer: return unsigned_values.size();
    case Kind::signed_integer: return signed_values.size();
    case Kind::real: return real_values.size();
    case Kind::text: return text_values.size();
  }
  return 0;
}

long double Column::number(std::size_t i) const {
  switch (kind) {
    case Kind::unsigned_integer: return static_cast<long double>(unsigned_values[i]);
    case Kind::signed_integer: return static_cast<long double>(signed_values[i]);
    case Kind::real: return real_values[i];
    case Kind::text: break;
  }
  return std::numeric_limits<long double>::quiet_NaN();
}

}  // namespace tdcone::h5
