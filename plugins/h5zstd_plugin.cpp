// HDF5 dynamic plugin: put <build>/plugins in HDF5_PLUGIN_PATH and h5dump,
// h5py or any HDF5 1.10+ program reads tdcone files written with
// --compression zstd (filter 32015). Same filter class as in-process.
#include <H5PLextern.h>

#include "tdcone/hdf5/zstd_filter.hpp"

extern "C" {

H5PL_type_t H5PLget_plugin_type(void) { return H5PL_TYPE_FILTER; }

const void* H5PLget_plugin_info(void) { return tdcone::hdf5::zstd_filter_class(); }
}
