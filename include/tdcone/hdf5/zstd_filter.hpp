#pragma once
// The registered HDF5 zstd filter (id 32015, cd_values[0] = level). Each
// chunk is one zstd frame with its content size, as other readers expect.
#include <hdf5.h>

namespace tdcone::hdf5 {

inline constexpr H5Z_filter_t kZstdFilterId = 32015;

/// The filter class (shared by the in-process registration and the plugin).
const H5Z_class2_t* zstd_filter_class();

/// Registers the filter with the HDF5 library of this process (idempotent).
void register_zstd_filter();

}  // namespace tdcone::hdf5
