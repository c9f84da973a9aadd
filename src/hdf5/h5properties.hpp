#pragma once
// Private to src/hdf5: the property objects of the output file (each applies
// one setting to an HDF5 property list), the stored types of its columns, and
// the string types. Every failure is an IoError naming the object and the file.
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <string>

#include "h5handle.hpp"
#include "tdcone/hdf5/output_file.hpp"

namespace tdcone::hdf5::detail {

/// What a property or call applies to, for error messages.
struct Where {
  std::string object;  // "dataset /pairs/tdcone", "group /pairs", "the file"
  std::string file;
};

/// File access: the MPI-IO driver over `comm`.
struct MpioFileAccess {
  MPI_Comm comm;
  void apply(hid_t fapl, const Where& where) const;
};

/// File access: metadata reads and writes done collectively.
struct CollectiveMetadata {
  void apply(hid_t fapl, const Where& where) const;
};

/// File access: a read-back where the file system has no locks (Lustre without flock).
struct NoFileLocking {
  void apply(hid_t fapl, const Where& where) const;
};

/// File or group creation: links listed in creation order.
struct TrackCreationOrder {
  void apply(hid_t cpl, const Where& where) const;
};

/// Dataset creation: 1-D chunks of `rows`.
struct Chunking {
  hsize_t rows;
  void apply(hid_t dcpl, const Where& where) const;
};

/// Dataset creation: what parallel HDF5 1.10 wants (no fill, space allocated early).
struct ParallelAllocation {
  void apply(hid_t dcpl, const Where& where) const;
};

/// Dataset creation: [shuffle +] deflate(1) | [shuffle +] zstd(3) | nothing.
/// Shuffle groups byte k of every value: it helps integers (their high bytes
/// are alike) and hurts floating point, whose repeated 8-byte values deflate
/// and zstd find whole; byte planes of mantissas look random.
struct Filters {
  Compression compression;
  bool shuffle = true;
  void apply(hid_t dcpl, const Where& where) const;
};

/// Data transfer: collective MPI-IO (required for filtered datasets).
struct CollectiveTransfer {
  void apply(hid_t dxpl, const Where& where) const;
};

/// A new property list of class `cls` with each of `properties` applied.
template <class... Properties>
Handle property_list(hid_t cls, const Where& where, const Properties&... properties) {
  Handle plist = own(H5Pcreate(cls), H5Pclose, "create a property list for", where.object, where.file);
  (properties.apply(plist.get(), where), ...);
  return plist;
}

/// The memory and file types of a numeric column of T.
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
struct ColumnType<std::uint16_t> {
  static hid_t memory() { return H5T_NATIVE_UINT16; }
  static hid_t file() { return H5T_STD_U16LE; }
};
template <>
struct ColumnType<std::uint8_t> {
  static hid_t memory() { return H5T_NATIVE_UINT8; }
  static hid_t file() { return H5T_STD_U8LE; }
};

/// Fixed-length, null-padded UTF-8 string type of `width` bytes (at least 1).
Handle string_type(std::size_t width, const Where& where);

/// Variable-length, null-terminated UTF-8 string type.
Handle variable_string_type(const Where& where);

}  // namespace tdcone::hdf5::detail
