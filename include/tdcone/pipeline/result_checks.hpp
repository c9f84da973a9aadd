#pragma once
// Reading a result back: is it a tdcone result this tdcone reads, does it
// hold a table whole, and which input files did its run read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tdcone/hdf5/h5file.hpp"

namespace tdcone::pipeline {

/// The major version of a tdcone_version ("0.1.0": 0), or nullopt when the
/// text is not a version: MAJOR.MINOR[.PATCH...], digits, then optionally a
/// '-' or '+' and anything ("1.0.0-rc1").
std::optional<std::uint64_t> version_major(const std::string& version);

/// Why this tdcone does not read a result whose root attribute tdcone_version
/// is `version` (nullopt: there is none), or "": the attribute must be there,
/// be a version, and its major not be newer than this build's (TDCONE_VERSION,
/// the CMake project version). Results of older versions are read.
std::string result_version_problem(const std::optional<std::string>& version);

/// Throws IoError (exit status 1) unless `reader` (the file `path`) is a tdcone
/// result this tdcone reads: see result_version_problem.
void check_tdcone_result(const h5::Reader& reader, const std::string& path);

/// Throws IoError (exit status 1), saying what writes it, unless the result
/// `path` has the table `group` ("/pairs") with every required column of its
/// schema::Table (SPEC §8). `need`: who needs it, for the message ("export",
/// "--rank-by tdcone"). A group the schema does not mark `checked` is not checked.
void check_result_table(const h5::Reader& reader, const std::string& path, const std::string& group,
                        const std::string& need);

/// What a result records of its run's input files: `/inputs`, or the root
/// attributes `inputs`, `input_sizes`, `input_lines`, `input_fingerprints` of
/// an older tdcone's result. Empty vectors for what is not recorded.
struct RecordedFiles {
  bool given = false;  // the file list is recorded
  std::vector<std::string> paths;
  std::vector<std::uint64_t> sizes, lines, fingerprints;
};
RecordedFiles recorded_files(const h5::Reader& reader);

}  // namespace tdcone::pipeline
