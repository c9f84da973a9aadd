// register_zstd_filter(): kept apart from zstd_filter.cpp so that the plugin
// library (built from that file) does not call into, or link, libhdf5.
#include "h5handle.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/zstd_filter.hpp"

namespace tdcone::hdf5 {

void register_zstd_filter() {
  detail::silence_hdf5_errors();
  // Already there: registered by us earlier, or loaded from HDF5_PLUGIN_PATH
  // (the same filter class).
  if (H5Zfilter_avail(kZstdFilterId) > 0) return;
  if (H5Zregister(zstd_filter_class()) < 0)
    throw IoError(cat("cannot register the zstd HDF5 filter (id ", kZstdFilterId, "): ", detail::hdf5_reason()));
}

}  // namespace tdcone::hdf5
