#pragma once
// The label invariants of the record fuzz targets: a good line's labels are
// either one problem (and no value) or one non-empty UTF-8 value per label,
// which label::LocalLabels reads (the first label bucketed at 0.5) into one
// id per label, or into kNoValue for every label with a reason.
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/label/labels.hpp"

namespace tdcone::fuzz {

class LabelCheck {
 public:
  LabelCheck() : spec_{{"formality", "arousal"}, {{0.5}, {}}}, local_(spec_) {}

  /// `labels`: how many labels the parser's spec has.
  void check(std::size_t labels, const io::Record& record) {
    if (labels == 0 || !record.label_problem.empty()) {
      FUZZ_CHECK(record.labels.empty());
      return;
    }
    FUZZ_CHECK(record.labels.size() == labels && labels == spec_.size());
    for (std::string_view value : record.labels)
      FUZZ_CHECK(!value.empty() && simdjson::validate_utf8(value.data(), value.size()));
    ids_.clear();
    const std::string problem = local_.add(record.labels, ids_);
    FUZZ_CHECK(ids_.size() == labels);
    FUZZ_CHECK(problem.empty() == (ids_[0] != label::kNoValue && ids_[1] != label::kNoValue));
  }

 private:
  io::LabelSpec spec_;
  label::LocalLabels local_;
  std::vector<std::uint32_t> ids_;
};

}  // namespace tdcone::fuzz
