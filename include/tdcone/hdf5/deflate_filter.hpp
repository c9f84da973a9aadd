#pragma once
// HDF5's deflate filter (id 1, H5Z_FILTER_DEFLATE), done by ISA-L's igzip and
// libdeflate in this process. Chunks stay zlib streams (a 2-byte zlib header,
// raw deflate, adler32), what HDF5's own deflate filter writes and reads, so
// files record the standard filter and any reader (h5py, h5dump) reads them.
#include <hdf5.h>

#include <cstdint>

namespace tdcone::hdf5 {

/// Puts this filter in the place of HDF5's own deflate for the HDF5 library
/// of this process. Call it before files are written or read; calling it
/// again is harmless. Where the library offers no way to replace a built-in
/// filter, HDF5's own deflate stays: the files are the same format.
void register_deflate_filter();

/// The filter class that register_deflate_filter() installs.
const H5Z_class2_t* deflate_filter_class();

/// How many chunks this filter compressed and inflated in this process.
struct DeflateCounts {
  std::uint64_t compressed = 0, inflated = 0;
};
DeflateCounts deflate_filter_counts();

}  // namespace tdcone::hdf5
