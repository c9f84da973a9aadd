#pragma once
// Our default compression, HDF5's deflate filter, runs through this
// program's compress2(), which uses ISA-L's igzip and libdeflate (see the .cpp).

namespace tdcone::hdf5 {

/// True when the compress2() that HDF5 calls is this program's, i.e. the
/// executable exports it and it interposes zlib's.
bool compress2_is_ours();

}  // namespace tdcone::hdf5
