#pragma once
// A column of many short strings (pair ids) end to end in one buffer: 8
// bytes a row and the characters, where a std::string per row takes 32 and,
// past 15 characters, a heap block besides.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/core/memory_pages.hpp"

namespace tdcone {

class StringColumn {
 public:
  void push_back(std::string_view value) {
    chars_.append(value);
    ends_.push_back(chars_.size());
  }
  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::string_view operator[](std::size_t i) const {
    const std::uint64_t begin = i == 0 ? 0 : ends_[i - 1];
    return {chars_.data() + begin, ends_[i] - begin};
  }
  /// The characters of all rows.
  std::size_t chars() const { return chars_.size(); }
  /// Room for `rows` rows of `chars` characters in all, so that a column
  /// filled to about that size is never copied as it grows.
  void reserve(std::size_t rows, std::size_t chars) {
    ends_.reserve(rows);
    chars_.reserve(chars);
  }
  /// Bytes held.
  std::uint64_t bytes() const { return chars_.capacity() + ends_.capacity() * sizeof(std::uint64_t); }
  /// Frees a spare of more than a quarter of the size (shrink_large_spares).
  void shrink_to_fit() { shrink_large_spares(chars_, ends_); }

 private:
  std::string chars_;
  std::vector<std::uint64_t> ends_;  // row i is chars_[ends_[i - 1], ends_[i])
};

}  // namespace tdcone
