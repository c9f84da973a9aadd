#include "h5properties.hpp"

#include <algorithm>

#include "tdcone/hdf5/zstd_filter.hpp"

namespace tdcone::hdf5::detail {

namespace {
// Level 1: behind the shuffle filter the pair columns come out about as
// small as at higher levels, in less time.
constexpr unsigned kDeflateLevel = 1;
constexpr unsigned kZstdLevel = 3;
}  // namespace

void MpioFileAccess::apply(hid_t fapl, const Where& where) const {
  check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "set MPI-IO file access for", where.object, where.file);
}

void CollectiveMetadata::apply(hid_t fapl, const Where& where) const {
  check(H5Pset_all_coll_metadata_ops(fapl, true), "set collective metadata reads for", where.object, where.file);
  check(H5Pset_coll_metadata_write(fapl, true), "set collective metadata writes for", where.object, where.file);
}

void NoFileLocking::apply(hid_t fapl, const Where& where) const {
  check(H5Pset_file_locking(fapl, false, true), "turn off file locking for", where.object, where.file);
}

void TrackCreationOrder::apply(hid_t cpl, const Where& where) const {
  check(H5Pset_link_creation_order(cpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), "track link creation order for",
        where.object, where.file);
}

void Chunking::apply(hid_t dcpl, const Where& where) const {
  check(H5Pset_chunk(dcpl, 1, &rows), "set chunking for", where.object, where.file);
}

void ParallelAllocation::apply(hid_t dcpl, const Where& where) const {
  check(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "set fill time for", where.object, where.file);
  check(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "set allocation time for", where.object, where.file);
}

void Filters::apply(hid_t dcpl, const Where& where) const {
  if (compression == Compression::none) return;
  if (shuffle) check(H5Pset_shuffle(dcpl), "set the shuffle filter for", where.object, where.file);
  if (compression == Compression::deflate) {
    check(H5Pset_deflate(dcpl, kDeflateLevel), "set the deflate filter for", where.object, where.file);
  } else {
    const unsigned level = kZstdLevel;
    check(H5Pset_filter(dcpl, kZstdFilterId, H5Z_FLAG_MANDATORY, 1, &level), "set the zstd filter for", where.object,
          where.file);
  }
}

void CollectiveTransfer::apply(hid_t dxpl, const Where& where) const {
  check(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "set collective transfer for", where.object, where.file);
}

Handle string_type(std::size_t width, const Where& where) {
  Handle type = own(H5Tcopy(H5T_C_S1), H5Tclose, "create a string type for", where.object, where.file);
  check(H5Tset_size(type.get(), std::max<std::size_t>(width, 1)), "size the string type of", where.object, where.file);
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "set string padding for", where.object, where.file);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set UTF-8 for", where.object, where.file);
  return type;
}

Handle variable_string_type(const Where& where) {
  Handle type = own(H5Tcopy(H5T_C_S1), H5Tclose, "create a string type for", where.object, where.file);
  check(H5Tset_size(type.get(), H5T_VARIABLE), "size the string type of", where.object, where.file);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set UTF-8 for", where.object, where.file);
  return type;
}

}  // namespace tdcone::hdf5::detail
