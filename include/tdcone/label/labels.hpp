#pragma once
// Labels of pairs (style buckets, a classifier's bucket, a source): raw values
// become values of a label as given, or as buckets of a number; all ranks then
// agree on every label's values and number the combinations the same way.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tdcone/io/record.hpp"
#include "tdcone/text/label_interner.hpp"

namespace tdcone::label {

inline constexpr std::uint32_t kNoValue = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint32_t kNoCombination = kNoValue;
/// Combinations are counted on every rank: beyond this, a typo, not a design.
inline constexpr std::size_t kMaxCombinations = std::size_t{1} << 16;

/// The buckets of `cuts` (value < cuts[0] is bucket 0, cuts[i-1] <= value <
/// cuts[i] bucket i): "low", "high"; "low", "mid", "high"; "very low", "low",
/// "high", "very high"; "very low", "low", "mid", "high", "very high"; with
/// more, intervals: "<0.1", "[0.1,0.2)", ..., ">=0.9".
std::vector<std::string> bucket_names(const std::vector<double>& cuts);

/// Fills spec.cuts from --label-buckets entries "NAME=c1,c2,...", NAME a
/// label name or, for TSV, its column number. Throws UsageError naming the entry.
void parse_buckets(const std::vector<std::string>& entries, const std::vector<int>& columns, io::LabelSpec& spec);

/// One rank's label values, interned per label in order of appearance, as
/// the reader hands them on (text::LabelInterner).
class LocalLabels final : public text::LabelInterner {
 public:
  explicit LocalLabels(const io::LabelSpec& spec);
  /// Appends one value id per label to `ids`; when a value is unusable (not
  /// a number for a bucketed label; '*' or holding '|', which name
  /// combinations) appends kNoValue for every label and returns why.
  std::string add(std::span<const std::string_view> raw, std::vector<std::uint32_t>& ids) override;
  /// Appends kNoValue for every label (a bad line, or a label the parser found missing).
  void add_none(std::vector<std::uint32_t>& ids) const override;
  /// Per label: the text of each value id (bucket names for a bucketed label).
  std::vector<std::vector<std::string>> take_values() override { return std::move(values_); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  const io::LabelSpec& spec_;
  std::vector<std::vector<std::string>> values_;
  std::vector<std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>>> ids_;
  std::vector<std::uint32_t> scratch_;
};

/// The interner of a read with labels (text::ReadOptions::label_interner): LocalLabels.
std::unique_ptr<text::LabelInterner> local_labels(const io::LabelSpec& spec);

/// Every label's values present on any rank: values as given in byte order,
/// buckets in bucket order. Combination k numbers the product of the values
/// in mixed radix, the first label varying slowest (label::LabelCounts).
struct LabelSpace {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> values;

  std::vector<std::size_t> values_per_label() const;
  std::size_t combinations() const;
  std::uint32_t value_of(std::size_t combination, std::size_t label) const;
  /// "formal|aroused"
  std::string combination_name(std::size_t combination) const;
  /// The names of all combinations, in order.
  std::vector<std::string> combination_names() const;
  /// "formal|*": one label's value, any value of the others.
  std::string marginal_name(std::size_t label, std::size_t value) const;
};

/// The label space and each local pair's combination (kNoCombination
/// without a label), with the global line count of every combination.
struct PairLabels {
  LabelSpace space;
  std::vector<std::uint32_t> combination_of_pair;
  std::vector<std::uint64_t> counts;  // per combination, over all ranks
  std::uint64_t labelled = 0;         // Σ counts
};

/// True when a label of `values` values over `lines` labelled lines looks like
/// an id, a URL or text, not a label: more than kIdLikeValues values with
/// fewer than kIdLikeLinesPerValue lines a value on average.
bool looks_like_ids(std::size_t values, std::uint64_t lines);
inline constexpr std::size_t kIdLikeValues = 50;
inline constexpr std::uint64_t kIdLikeLinesPerValue = 20;

/// Agrees on the label space over all ranks, from each rank's `local_values`
/// (LocalLabels::take_values) and its pairs' value `ids` (spec.size() per
/// pair). Throws UsageError on every rank when the labels make more than
/// kMaxCombinations combinations. Collective.
PairLabels agree_labels(const boost::mpi::communicator& comm, const io::LabelSpec& spec,
                        const std::vector<std::vector<std::string>>& local_values,
                        const std::vector<std::uint32_t>& ids);

}  // namespace tdcone::label
