#pragma once
// Labels pass through the reader as a column of raw values: text hands each
// pair's values on to an interner (the label module's label::LocalLabels,
// which buckets and numbers them) and keeps the ids it gets back.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/io/record.hpp"

namespace tdcone::text {

/// Turns each pair's raw label values (in the order of the read's labels) into value ids.
class LabelInterner {
 public:
  virtual ~LabelInterner() = default;
  /// Appends one value id per label to `ids` for the next pair; when its
  /// values are unusable appends "no value" for every label and returns why.
  virtual std::string add(std::span<const std::string_view> raw, std::vector<std::uint32_t>& ids) = 0;
  /// Appends "no value" for every label (a bad line, or labels the parser found missing).
  virtual void add_none(std::vector<std::uint32_t>& ids) const = 0;
  /// Per label: the text of each value id, once the last pair is added.
  virtual std::vector<std::vector<std::string>> take_values() = 0;
};

/// Makes the interner of a read's labels (held by the reader for one read).
using LabelInternerFactory = std::function<std::unique_ptr<LabelInterner>(const io::LabelSpec&)>;

}  // namespace tdcone::text
