#pragma once
// The message of the rows one pair adds to one owner's part of M
// (docs/spec.md §3; docs/design/matrix.md), in 32-bit words. The score
// engine writes it (append), the matrix reads it where it was received
// (Reader): this header is the one place that knows its layout.
//
//   group | n_yo | n_same | n_xo | flags       the header, kHeaderWords
//   y\x: n_yo column ids
//   rows: n_same ids of rule 1 (x∩y), then n_xo of rule 2 (x\y)
//   with flag `weighted`: n_xo × n_yo weights, a rule-2 row's after the
//   other, each in two words, low first
//
// A message carries y\x once, not every cell: each rule-2 row spreads over
// all of y\x, so a pair has many more cells than rows. The rows of a
// message are numbered, as RowJob numbers them: rule 1's from 0, then rule
// 2's, then NULL's (rule 3) last.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tdcone::matrix {

/// One row of a message: its `index` in the message, as above.
struct RowJob {
  std::uint32_t row;      // global id (NULL = 0)
  std::uint32_t message;  // offset of the message header in the words
  std::uint32_t index;
};

namespace pair_message {

inline constexpr std::size_t kHeaderWords = 5;
enum Flag : std::uint32_t {
  null_row = 1,  // rule 3: the NULL row gets 1/|y\x| on each of y\x
  weighted = 2,  // rule 2 by the given weights (static); else 1/(|y\x|+1) to y\x and NULL
};

/// What one pair sends one owner: the global ids of y\x and of the owner's
/// rows, and with `weighted` the fixed-point weights (WeightScale) of each
/// rule-2 row on each word of y\x, row after row.
struct Rows {
  std::uint32_t group = 0;
  std::span<const std::uint32_t> yo, same, xo;
  std::span<const std::uint64_t> weights;
  bool null_row = false, weighted = false;
};

/// Appends the message of `rows` to `words`; returns its length in words.
inline std::size_t append(std::vector<std::uint32_t>& words, const Rows& rows) {
  assert(!rows.weighted || rows.weights.size() == rows.xo.size() * rows.yo.size());
  const std::uint32_t flags = (rows.null_row ? null_row : 0u) | (rows.weighted ? weighted : 0u);
  words.insert(words.end(), {rows.group, static_cast<std::uint32_t>(rows.yo.size()), static_cast<std::uint32_t>(rows.same.size()),
                             static_cast<std::uint32_t>(rows.xo.size()), flags});
  words.insert(words.end(), rows.yo.begin(), rows.yo.end());
  words.insert(words.end(), rows.same.begin(), rows.same.end());
  words.insert(words.end(), rows.xo.begin(), rows.xo.end());
  if (!rows.weights.empty()) {
    const std::size_t at = words.size();
    words.resize(at + 2 * rows.weights.size());
    for (std::size_t k = 0; k < rows.weights.size(); ++k) {
      words[at + 2 * k] = static_cast<std::uint32_t>(rows.weights[k]);
      words[at + 2 * k + 1] = static_cast<std::uint32_t>(rows.weights[k] >> 32);
    }
  }
  return kHeaderWords + rows.yo.size() + rows.same.size() + rows.xo.size() + 2 * rows.weights.size();
}

/// A message read where it lies, from its header.
class Reader {
 public:
  explicit Reader(const std::uint32_t* header) : header_(header) {}

  std::uint32_t group() const { return header_[0]; }
  std::uint32_t n_yo() const { return header_[1]; }
  std::uint32_t n_same() const { return header_[2]; }
  std::uint32_t n_xo() const { return header_[3]; }
  std::uint32_t flags() const { return header_[4]; }
  const std::uint32_t* yo() const { return header_ + kHeaderWords; }
  /// The ids of the rows of rules 1 and 2: index k below n_same() + n_xo().
  const std::uint32_t* rows() const { return yo() + n_yo(); }
  /// With `weighted`: the weights of the rule-2 row of index `index`, to
  /// read with weight().
  const std::uint32_t* weights_of(std::uint32_t index) const {
    return rows() + n_same() + n_xo() + std::size_t{2} * (index - n_same()) * n_yo();
  }
  /// The weight on word t of y\x, of weights_of() a row.
  static std::uint64_t weight(const std::uint32_t* weights, std::size_t t) {
    return weights[2 * t] | (std::uint64_t{weights[2 * t + 1]} << 32);
  }

  /// Its words.
  std::size_t length() const {
    const std::size_t n_yo = header_[1], n_same = header_[2], n_xo = header_[3];
    return kHeaderWords + n_yo + n_same + n_xo + (header_[4] & weighted ? 2 * n_xo * n_yo : 0);
  }
  /// Its rows: same and x\y, and NULL's.
  std::size_t row_count() const { return std::size_t{n_same()} + n_xo() + (flags() & null_row ? 1 : 0); }
  /// visit(row, index) of each of its rows, in the order of their indices.
  template <class Visit>
  void for_each_row(Visit&& visit) const {
    const std::uint32_t listed = n_same() + n_xo();
    const std::uint32_t* ids = rows();
    for (std::uint32_t k = 0; k < listed; ++k) visit(ids[k], k);
    if (flags() & null_row) visit(std::uint32_t{0}, listed);  // NULL: global id 0
  }

 private:
  const std::uint32_t* header_;
};

}  // namespace pair_message
}  // namespace tdcone::matrix
