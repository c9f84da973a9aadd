#pragma once
// The HDF5 result file: the collective writer (output_file.hpp) and the serial
// reader (reader.hpp), for code that uses both.
#include "tdcone/hdf5/output_file.hpp"
#include "tdcone/hdf5/reader.hpp"
