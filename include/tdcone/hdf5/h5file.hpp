#pragma once
// Thin RAII layer over the HDF5 C API: a collective, parallel output file
// written under a temporary name and renamed when complete, and a serial
// reader for `tdcone export` and the tests.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tdcone::h5 {

enum class Compression { deflate, zstd, none };  // deflate = shuffle + deflate level 4

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
  void write_column(const std::string& dataset, std::span<const std::uint8_t> rows, std::uint64_t offset, std::uint64_t total);
  /// Fixed-length, null-padded strings marked UTF-8 (h5py: `ds.asstr()[...]`
  /// gives `str`), width = the longest over all ranks (at least 1); see the
  /// .cpp for why not variable-length.
  void write_column(const std::string& dataset, const std::vector<std::string>& rows, std::uint64_t offset, std::uint64_t total);

  /// Closes the file and renames it to `path` (collective).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One column of a table, in the type it is stored as.
struct Column {
  enum class Kind { unsigned_integer, signed_integer, real, text };
  Kind kind = Kind::real;
  std::vector<std::uint64_t> unsigned_values;  // Kind::unsigned_integer
  std::vector<std::int64_t> signed_values;     // Kind::signed_integer
  std::vector<double> real_values;             // Kind::real
  std::vector<std::string> text_values;        // Kind::text
  std::size_t size() const;
  bool numeric() const { return kind != Kind::text; }
  /// Row `i` as a number (integers converted; for sorting and filters). Not for text.
  long double number(std::size_t i) const;
};

/// Read access to a finished file (one process, no MPI needed).
class Reader {
 public:
  explicit Reader(const std::string& path);  // throws IoError naming the path
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  bool exists(const std::string& object) const;                           // "/pairs", "/pairs/tdcone"
  std::vector<std::string> datasets(const std::string& group) const;      // names in creation order
  std::vector<std::string> groups(const std::string& group) const;        // subgroup names, in creation order
  std::vector<std::string> attributes(const std::string& object) const;   // names

  double attribute_double(const std::string& object, const std::string& name) const;
  std::uint64_t attribute_uint(const std::string& object, const std::string& name) const;
  std::string attribute_string(const std::string& object, const std::string& name) const;
  /// A 1-D (or single) unsigned integer attribute.
  std::vector<std::uint64_t> attribute_uints(const std::string& object, const std::string& name) const;
  /// Any attribute rendered as text (numbers with full precision; an array as "[a, b, ...]").
  std::string attribute_text(const std::string& object, const std::string& name) const;
  /// The stored type of an attribute or dataset, for people: "u64", "f64",
  /// "string (variable-length, UTF-8)", "string (fixed 12 bytes, UTF-8)", ...
  std::string attribute_type(const std::string& object, const std::string& name) const;
  std::string dataset_type(const std::string& dataset) const;
  std::size_t rows(const std::string& dataset) const;  // elements

  std::vector<std::uint64_t> read_uint(const std::string& dataset) const;  // any unsigned integer column
  std::vector<double> read_double(const std::string& dataset) const;
  /// Rows [first, first + count) of a numeric column (a rank's share); throws IoError past its end.
  std::vector<double> read_double(const std::string& dataset, std::uint64_t first, std::uint64_t count) const;
  std::vector<std::string> read_strings(const std::string& dataset) const;
  /// Any column rendered as text, one entry per row (for export).
  std::vector<std::string> read_text(const std::string& dataset) const;
  /// Any column in its own type.
  Column read_column(const std::string& dataset) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tdcone::h5
