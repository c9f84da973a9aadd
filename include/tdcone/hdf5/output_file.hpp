#pragma once
// The parallel output file: written collectively by every rank (MPI-IO) under
// a temporary name and renamed when complete, and the check of its target.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/core/string_column.hpp"

namespace tdcone::hdf5 {

enum class Compression { deflate, zstd, none };  // deflate = shuffle (integer columns) + deflate level 1

/// Throws UsageError if `path` exists and `force` is false, if it exists and
/// is not a regular file (a directory, device, FIFO; --force or not), or if
/// its directory is not writable. Call before any long work.
void check_output_target(const std::string& path, bool force);

/// A new HDF5 file written collectively by every rank of `comm` (MPI-IO).
/// It lives at `path + ".partial-XXXXXX"` (a name of this job's own) until
/// commit(), while rank 0 holds io::OutputLock on `path` (another job writing
/// `path` is refused); destroyed without commit, or ended by SIGTERM, SIGINT
/// or SIGHUP, the partial file is removed. Every method is collective: all ranks call it
/// in the same order with the same names and attribute values.
class OutputFile {
 public:
  OutputFile(const std::string& path, bool force, MPI_Comm comm, Compression compression);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void create_group(const std::string& group);  // e.g. "/pairs"

  // Attributes on "/" or a group.
  void set_attribute(const std::string& object, const std::string& name, double value);
  void set_attribute(const std::string& object, const std::string& name, std::uint64_t value);
  void set_attribute(const std::string& object, const std::string& name, std::int64_t value);
  /// A variable-length UTF-8 string (h5py reads it as `str`).
  void set_attribute(const std::string& object, const std::string& name, const std::string& value);
  /// A 1-D array of unsigned integers.
  void set_attribute(const std::string& object, const std::string& name, std::span<const std::uint64_t> values);

  /// 1-D chunked, compressed dataset of `total` rows; this rank writes its
  /// `rows` at [offset, offset + rows.size()). Ranks may write nothing.
  void write_column(const std::string& dataset, std::span<const std::uint64_t> rows, std::uint64_t offset, std::uint64_t total);
  void write_column(const std::string& dataset, std::span<const double> rows, std::uint64_t offset, std::uint64_t total);
  void write_column(const std::string& dataset, std::span<const std::uint32_t> rows, std::uint64_t offset, std::uint64_t total);
  void write_column(const std::string& dataset, std::span<const std::uint16_t> rows, std::uint64_t offset, std::uint64_t total);
  void write_column(const std::string& dataset, std::span<const std::uint8_t> rows, std::uint64_t offset, std::uint64_t total);
  /// Fixed-length, null-padded strings marked UTF-8 (h5py: `ds.asstr()[...]`
  /// gives `str`), width = the longest over all ranks (at least 1); see the
  /// .cpp for why not variable-length.
  void write_column(const std::string& dataset, const std::vector<std::string>& rows, std::uint64_t offset, std::uint64_t total);
  void write_column(const std::string& dataset, const StringColumn& rows, std::uint64_t offset, std::uint64_t total);

  /// Closes the file and renames it to `path` (collective).
  void commit();

 private:
  void write_strings(const std::string& dataset, std::size_t rows, const std::function<std::string_view(std::size_t)>& row,
                     std::uint64_t offset, std::uint64_t total);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tdcone::hdf5
