#pragma once
// An independent expectation for the score engine: docs/spec.md §3's TD-CONE with
// --align uniform, computed the naive way (a map of maps, plain double sums)
// from each pair's word types. It shares no code with the engine, so a test
// on one rank compares the engine with something other than itself.
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace tdcone::test_support {

using TypeSet = std::set<std::uint32_t>;
using NaivePair = std::pair<TypeSet, TypeSet>;  // (input types, output types)

/// TD-CONE of `pairs` (docs/spec.md §3, uniform alignment): the matrix M of counts,
/// then H(Y|X) / ln(|V_y| + 1). Row and column ids are the types; NULL is
/// a key no type has.
inline double naive_tdcone(const std::vector<NaivePair>& pairs) {
  constexpr std::int64_t kNull = -1;
  std::map<std::int64_t, std::map<std::int64_t, double>> m;
  std::set<std::uint32_t> output_types;
  for (const auto& [x, y] : pairs) {
    std::vector<std::int64_t> xo, yo;
    for (std::uint32_t w : x) {
      if (y.count(w))
        m[w][w] += 1;
      else
        xo.push_back(w);
    }
    for (std::uint32_t t : y) {
      output_types.insert(t);
      if (!x.count(t)) yo.push_back(t);
    }
    for (std::int64_t w : xo) {
      for (std::int64_t t : yo) m[w][t] += 1.0 / (yo.size() + 1);
      m[w][kNull] += 1.0 / (yo.size() + 1);
    }
    if (xo.empty())
      for (std::int64_t t : yo) m[kNull][t] += 1.0 / yo.size();
  }
  if (output_types.empty()) return 0;
  double total = 0;
  for (const auto& [w, row] : m)
    for (const auto& [t, count] : row) total += count;
  double entropy = 0;
  for (const auto& [w, row] : m) {
    double row_total = 0;
    for (const auto& [t, count] : row) row_total += count;
    for (const auto& [t, count] : row) entropy -= count / total * std::log(count / row_total);
  }
  return entropy / std::log(output_types.size() + 1.0);
}

}  // namespace tdcone::test_support
