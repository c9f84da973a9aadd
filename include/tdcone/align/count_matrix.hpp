#pragma once
// One rank's alignment count matrix M, summed over its pairs, in local word ids.
#include <absl/container/flat_hash_map.h>

#include <cstdint>

#include "tdcone/align/pair_alignment.hpp"

namespace tdcone::align {

class LocalCountMatrix {
 public:
  void add(const PairMatrix& pair);

  static std::uint64_t key(text::WordId x, text::WordId y) { return (std::uint64_t{x} << 32) | y; }
  static text::WordId row_of(std::uint64_t key) { return static_cast<text::WordId>(key >> 32); }
  static text::WordId column_of(std::uint64_t key) { return static_cast<text::WordId>(key); }

  const absl::flat_hash_map<std::uint64_t, double>& cells() const { return cells_; }
  void clear() { cells_ = {}; }

 private:
  absl::flat_hash_map<std::uint64_t, double> cells_;
};

}  // namespace tdcone::align
