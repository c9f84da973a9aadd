// The public side of OutputFile: the check of its target, the creation of
// the partial file, groups, attributes and columns, and the commit.
#include "tdcone/hdf5/output_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "output_file_impl.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/deflate_filter.hpp"
#include "tdcone/hdf5/zstd_filter.hpp"
#include "tdcone/io/output_guard.hpp"

namespace tdcone::hdf5 {

namespace fs = std::filesystem;
using detail::check;
using detail::CollectiveMetadata;
using detail::Handle;
using detail::MpioFileAccess;
using detail::own;
using detail::property_list;
using detail::string_type;
using detail::TrackCreationOrder;
using detail::variable_string_type;
using detail::Where;

void check_output_target(const std::string& path, bool force) {
  if (path.empty()) throw UsageError("output file name is empty");
  std::error_code ec;
  const fs::path target(path);
  // The path itself, not what a link there points at: a link is neither followed nor replaced.
  const auto status = fs::symlink_status(target, ec);
  if (fs::is_symlink(status))
    throw UsageError(cat("output file ", path, " is a symbolic link, which tdcone will not follow or replace",
                         force ? cat(" (not even with ", Option::force, ")") : "", ": remove it, or choose another ",
                         Option::output));
  if (fs::exists(status)) {
    if (fs::is_directory(status)) throw UsageError(cat("output file is a directory: ", path));
    // A device, FIFO or socket is not ours to replace by a file, --force or not.
    if (!fs::is_regular_file(status))
      throw UsageError(cat("output file is not a regular file: ", path, " (", Option::force, " replaces regular files only)"));
    if (!force) throw UsageError(cat("output file exists: ", path, " (use ", Option::force, " to overwrite)"));
  }
  if (const std::string problem = io::folder_problem(path); !problem.empty())
    throw UsageError(cat("cannot create the output file ", path, ": ", problem));
}

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
    // MPI-IO opens the file by name: its name is ours, but H5Fcreate makes the
    // file anew, exclusively, so that a link put there meanwhile is refused.
    ::unlink(f.partial.c_str());
  });
  f.created = true;
  int length = static_cast<int>(f.partial.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, f.comm);
  f.partial.resize(static_cast<std::size_t>(length));
  MPI_Bcast(f.partial.data(), length, MPI_CHAR, 0, f.comm);
  f.on_signal.emplace(f.partial, f.rank);
  register_deflate_filter();  // also for the read-back check
  if (compression == Compression::zstd) register_zstd_filter();

  const Where where{"the file", f.partial};
  Handle fcpl = property_list(H5P_FILE_CREATE, where, TrackCreationOrder{});
  Handle fapl = property_list(H5P_FILE_ACCESS, where, MpioFileAccess{f.comm}, CollectiveMetadata{});
  f.remove_on_abort.emplace([partial = f.partial] { ::unlink(partial.c_str()); });
  hid_t id = -1;
  f.agree(true, [&] {
    id = H5Fcreate(f.partial.c_str(), H5F_ACC_EXCL, fcpl.get(), fapl.get());
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

void OutputFile::write_column(const std::string& dataset, std::span<const std::uint16_t> rows, std::uint64_t offset,
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
  write_strings(dataset, rows.size(), [&](std::size_t i) { return std::string_view(rows[i]); }, offset, total);
}

void OutputFile::write_column(const std::string& dataset, const StringColumn& rows, std::uint64_t offset,
                              std::uint64_t total) {
  write_strings(dataset, rows.size(), [&](std::size_t i) { return rows[i]; }, offset, total);
}

void OutputFile::write_strings(const std::string& dataset, std::size_t rows,
                               const std::function<std::string_view(std::size_t)>& row, std::uint64_t offset,
                               std::uint64_t total) {
  Impl& f = *impl_;
  const std::string what = "dataset " + dataset;
  f.enter(what);
  std::uint64_t longest = 0;
  for (std::size_t i = 0; i < rows; ++i) longest = std::max<std::uint64_t>(longest, row(i).size());
  const std::size_t width = std::max<std::uint64_t>(f.agree_layout(what, rows, offset, total, longest), 1);
  std::vector<char> packed(rows * width, '\0');
  for (std::size_t i = 0; i < rows; ++i) {
    const std::string_view value = row(i);
    std::copy(value.begin(), value.end(), packed.begin() + static_cast<std::ptrdiff_t>(i * width));
  }
  const Handle type = string_type(width, Where{what, f.partial});
  f.write_dataset(dataset, type.get(), type.get(), packed.data(), rows, offset, total);
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
    io::commit_partial(f.partial, f.path, f.force);
  });
  f.committed = true;
  f.on_signal->kept();
  MPI_Barrier(f.comm);
}

}  // namespace tdcone::hdf5
