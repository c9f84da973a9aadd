#pragma once
// Reading a result back: is it a tdcone result this tdcone reads, does it
// hold a table whole, and which input files did its run read.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tdcone/hdf5/h5file.hpp"

namespace tdcone::results {

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
void check_tdcone_result(const hdf5::Reader& reader, const std::string& path);

/// Throws IoError (exit status 1), saying what writes it, unless the result
/// `path` has the table `group` ("/pairs") with every required column of its
/// schema::Table (docs/spec.md §8), each column the schema knows stored in its type
/// (a /pairs/tdcone of strings is refused), all of one length and, in the
/// tables of one row a line (/pairs, /balance, /selection), of n_lines rows.
/// Only the dataspaces are read: a column that claims more rows is refused
/// before it is allocated (columns of differing lengths: UsageError, exit status 2). `need`: who needs it, for the message ("export",
/// "<rank-by> tdcone"). A group the schema does not mark `checked` is not checked.
void check_result_table(const hdf5::Reader& reader, const std::string& path, const std::string& group,
                        const std::string& need);

/// The root attribute n_lines of a result (the lines its run read), or nullopt
/// in a result without it.
std::optional<std::uint64_t> recorded_line_count(const hdf5::Reader& reader);

/// Throws IoError naming the file and the dataset unless `pair_ids`, the whole
/// pair_id column of `group` of the result `path`, holds each pair_id once and
/// below `n_lines` (the column's length when nullopt) and, in /pairs and
/// /balance, row r pair_id r. Other groups are not checked.
void check_pair_ids(const std::string& path, const std::string& group, std::span<const std::uint64_t> pair_ids,
                    std::optional<std::uint64_t> n_lines);

/// The same for rows [first, first + count) of /pairs or /balance (a rank's
/// share), read in blocks: each row r holds pair_id r.
void check_pair_id_rows(const hdf5::Reader& reader, const std::string& path, const std::string& group,
                        std::uint64_t first, std::uint64_t count);

/// What a result records of its run's input files: `/inputs`, or the root
/// attributes `inputs`, `input_sizes`, `input_lines`, `input_fingerprints` of
/// an older tdcone's result. Empty vectors for what is not recorded.
struct RecordedFiles {
  bool given = false;  // the file list is recorded
  std::vector<std::string> paths;
  std::vector<std::uint64_t> sizes, lines, fingerprints;
};
RecordedFiles recorded_files(const hdf5::Reader& reader);

}  // namespace tdcone::results
