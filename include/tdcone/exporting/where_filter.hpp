#pragma once
// --where COND... --where-result SCORE.h5 of balance and select: which lines
// of the corpus read now pass conditions (export --where's grammar) on their
// /pairs rows in a score result of that same corpus, e.g. flags.duplicate==0
// or markers==0 from a `tdcone score --dedup tokens` run.
#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/core/option.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/exporting/text.hpp"
#include "tdcone/text/tokenized_share.hpp"

namespace tdcone::exporting {

/// The conditions and the result they read; `where` empty: no filter.
struct WhereFilter {
  std::vector<std::string> where;
  std::string where_result;
  bool given() const { return !where.empty(); }
};

/// Throws UsageError unless both or neither of --where and --where-result are
/// given, --where-result names a regular file (check_result_path) and every
/// condition has the shape of one (split_where).
void check_where_options(const WhereFilter& filter);

/// Throws UsageError naming `option` (--where-result, --ranking) unless the
/// result `path` exists and is a regular file: HDF5 reads a result at random
/// offsets, which a FIFO or pipe cannot give. Only looked up, so it is cheap
/// to check before the corpus is read.
void check_result_path(Option option, const std::string& path);

/// Throws UsageError unless the result `reader` (the file `path`, read by
/// `option`: --ranking, --where-result) was computed on the corpus of `share`:
/// the same files, lines and content.
void check_same_corpus(const hdf5::Reader& reader, Option option, const std::string& path,
                       const text::TokenizedShare& share, const RunConfigReader& read_run_config);

/// Per local line of `share`: 1 when its /pairs row of the result passes every
/// condition. Checks the result first (a tdcone result of this corpus, with
/// every column named). Reads files only: not collective.
std::vector<std::uint8_t> passes_where(const WhereFilter& filter, const text::TokenizedShare& share,
                                       const RunConfigReader& read_run_config);

}  // namespace tdcone::exporting
