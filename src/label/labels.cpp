#include "tdcone/label/labels.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>

#include "tdcone/core/error.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/label/balance_plan.hpp"
#include "tdcone/mpi/exchange.hpp"

namespace tdcone::label {

std::vector<std::string> bucket_names(const std::vector<double>& cuts) {
  switch (cuts.size()) {
    case 1: return {"low", "high"};
    case 2: return {"low", "mid", "high"};
    case 3: return {"very low", "low", "high", "very high"};
    case 4: return {"very low", "low", "mid", "high", "very high"};  // the paper's five buckets
    default: break;
  }
  std::vector<std::string> names{cat("<", cuts.front())};
  for (std::size_t i = 1; i < cuts.size(); ++i) names.push_back(cat("[", cuts[i - 1], ",", cuts[i], ")"));
  names.push_back(cat(">=", cuts.back()));
  return names;
}

void parse_buckets(const std::vector<std::string>& entries, const std::vector<int>& columns, io::LabelSpec& spec) {
  spec.cuts.assign(spec.size(), {});
  for (const std::string& entry : entries) {
    const auto fail = [&](const std::string& why) {
      throw UsageError(cat(Option::label_buckets, " '", entry, "': ", why));
    };
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos) fail("expected NAME=CUT,CUT,... (e.g. formality=0.2,0.4,0.6,0.8)");
    const std::string name = entry.substr(0, equals);
    std::size_t label = std::find(spec.names.begin(), spec.names.end(), name) - spec.names.begin();
    for (std::size_t i = 0; label == spec.size() && i < columns.size(); ++i)
      if (name == std::to_string(columns[i])) label = i;
    if (label == spec.size()) {
      std::string known;
      for (const auto& n : spec.names) known += (known.empty() ? "" : ", ") + n;
      fail(cat("no label named '", name, "' (the labels: ", known, ")"));
    }
    if (!spec.cuts[label].empty()) fail(cat("label '", spec.names[label], "' has buckets already"));
    std::vector<double>& cuts = spec.cuts[label];
    std::string_view rest = std::string_view(entry).substr(equals + 1);
    while (true) {
      const std::size_t comma = rest.find(',');
      double cut = 0;
      if (!io::parse_number(rest.substr(0, comma), cut)) fail(cat("'", rest.substr(0, comma), "' is not a finite number"));
      if (!cuts.empty() && cut <= cuts.back()) fail("the cuts must increase");
      cuts.push_back(cut);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
}

LocalLabels::LocalLabels(const io::LabelSpec& spec) : spec_(spec), values_(spec.size()), ids_(spec.size()) {
  for (std::size_t l = 0; l < spec.size(); ++l)
    if (!spec.cuts[l].empty()) values_[l] = bucket_names(spec.cuts[l]);  // a bucket's id is its index
}

std::string LocalLabels::add(std::span<const std::string_view> raw, std::vector<std::uint32_t>& ids) {
  scratch_.clear();
  for (std::size_t l = 0; l < spec_.size(); ++l) {
    const std::vector<double>& cuts = spec_.cuts[l];
    if (!cuts.empty()) {
      double value = 0;
      if (!io::parse_number(raw[l], value)) {
        add_none(ids);
        return cat("label ", spec_.names[l], ": '", raw[l].substr(0, 40), "' is not a number (", Option::label_buckets, ")");
      }
      scratch_.push_back(static_cast<std::uint32_t>(std::upper_bound(cuts.begin(), cuts.end(), value) - cuts.begin()));
      continue;
    }
    auto& known = ids_[l];
    auto found = known.find(raw[l]);
    if (found == known.end()) {
      // Combination names join values with '|' and mark "any value" with '*'.
      if (raw[l] == "*" || raw[l].find('|') != std::string_view::npos) {
        add_none(ids);
        return cat("label ", spec_.names[l], ": '", raw[l].substr(0, 40), "' holds '|' or is '*' (they name combinations)");
      }
      found = known.emplace(std::string(raw[l]), static_cast<std::uint32_t>(values_[l].size())).first;
      values_[l].emplace_back(raw[l]);
    }
    scratch_.push_back(found->second);
  }
  ids.insert(ids.end(), scratch_.begin(), scratch_.end());
  return {};
}

std::unique_ptr<text::LabelInterner> local_labels(const io::LabelSpec& spec) { return std::make_unique<LocalLabels>(spec); }

void LocalLabels::add_none(std::vector<std::uint32_t>& ids) const { ids.insert(ids.end(), spec_.size(), kNoValue); }

std::vector<std::size_t> LabelSpace::values_per_label() const {
  std::vector<std::size_t> n;
  for (const auto& v : values) n.push_back(v.size());
  return n;
}

std::size_t LabelSpace::combinations() const {
  std::size_t product = 1;
  for (const auto& v : values) product *= v.size();
  return product;
}

std::uint32_t LabelSpace::value_of(std::size_t combination, std::size_t label) const {
  return static_cast<std::uint32_t>(combination / combination_stride(values_per_label(), label) % values[label].size());
}

std::string LabelSpace::combination_name(std::size_t combination) const {
  std::string name;
  for (std::size_t l = 0; l < values.size(); ++l) name += (l ? "|" : "") + values[l][value_of(combination, l)];
  return name;
}

std::vector<std::string> LabelSpace::combination_names() const {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < combinations(); ++k) names.push_back(combination_name(k));
  return names;
}

std::string LabelSpace::marginal_name(std::size_t label, std::size_t value) const {
  std::string name;
  for (std::size_t l = 0; l < values.size(); ++l) name += (l ? "|" : "") + (l == label ? values[l][value] : "*");
  return name;
}

// A label groups lines to compare and balance: a class, a bucket, a source
// has a few to some dozens of values, each on many lines. Scores per value and
// a balance of values each on a handful of lines mean nothing: such a column
// (the Twitter URL corpus's URLs: 915 values, 11 lines each) is a pair's id,
// URL or text.
bool looks_like_ids(std::size_t values, std::uint64_t lines) {
  return values > kIdLikeValues && lines < kIdLikeLinesPerValue * values;
}

PairLabels agree_labels(const boost::mpi::communicator& comm, const io::LabelSpec& spec,
                        const std::vector<std::vector<std::string>>& local_values, const std::vector<std::uint32_t>& ids) {
  const std::size_t n_labels = spec.size();
  const std::size_t pairs = n_labels ? ids.size() / n_labels : 0;
  // The values this rank's pairs use (a bucket list holds unused buckets too).
  std::vector<std::vector<std::string>> used(n_labels);
  for (std::size_t l = 0; l < n_labels; ++l) {
    std::vector<char> seen(local_values[l].size(), 0);
    for (std::size_t i = 0; i < pairs; ++i)
      if (ids[i * n_labels + l] != kNoValue) seen[ids[i * n_labels + l]] = 1;
    for (std::size_t v = 0; v < seen.size(); ++v)
      if (seen[v]) used[l].push_back(local_values[l][v]);
  }
  std::vector<std::vector<std::vector<std::string>>> all;
  boost::mpi::all_gather(comm, used, all);

  PairLabels result;
  result.space.names = spec.names;
  result.space.values.resize(n_labels);
  for (std::size_t l = 0; l < n_labels; ++l) {
    auto& values = result.space.values[l];
    for (const auto& rank_values : all) values.insert(values.end(), rank_values[l].begin(), rank_values[l].end());
    if (spec.cuts[l].empty()) {
      std::sort(values.begin(), values.end());
    } else {
      const std::vector<std::string> buckets = bucket_names(spec.cuts[l]);
      const auto bucket = [&](const std::string& name) { return std::find(buckets.begin(), buckets.end(), name) - buckets.begin(); };
      std::sort(values.begin(), values.end(), [&](const auto& a, const auto& b) { return bucket(a) < bucket(b); });
    }
    values.erase(std::unique(values.begin(), values.end()), values.end());
  }
  std::size_t product = 1;
  for (std::size_t l = 0; l < n_labels; ++l) {
    product *= std::max<std::size_t>(1, result.space.values[l].size());
    if (product > kMaxCombinations)
      throw UsageError(cat("the labels make more than ", kMaxCombinations, " combinations (label ", spec.names[l], " has ",
                           result.space.values[l].size(), " values); bucket numeric labels with ", Option::label_buckets));
  }

  // Local value id -> global value id, then each pair's combination.
  std::vector<std::vector<std::uint32_t>> global_id(n_labels);
  for (std::size_t l = 0; l < n_labels; ++l) {
    const auto& values = result.space.values[l];
    for (const std::string& text : local_values[l]) {
      // Values as given are sorted; buckets are few, in bucket order.
      const auto found = spec.cuts[l].empty() ? std::lower_bound(values.begin(), values.end(), text)
                                              : std::find(values.begin(), values.end(), text);
      global_id[l].push_back(found != values.end() && *found == text ? static_cast<std::uint32_t>(found - values.begin())
                                                                      : kNoValue);
    }
  }
  const bool any_empty = std::ranges::any_of(result.space.values, [](const auto& v) { return v.empty(); });
  const std::size_t combinations = any_empty ? 0 : result.space.combinations();
  std::vector<std::uint64_t> local_counts(combinations, 0);
  result.combination_of_pair.assign(pairs, kNoCombination);
  for (std::size_t i = 0; i < pairs && combinations > 0; ++i) {
    std::uint64_t k = 0;
    bool labelled = true;
    for (std::size_t l = 0; l < n_labels && labelled; ++l) {
      const std::uint32_t id = ids[i * n_labels + l];
      labelled = id != kNoValue;
      if (labelled) k = k * result.space.values[l].size() + global_id[l][id];
    }
    if (!labelled) continue;
    result.combination_of_pair[i] = static_cast<std::uint32_t>(k);
    ++local_counts[k];
  }
  result.counts = mpi::sum_all(MPI_Comm(comm), local_counts);
  for (auto c : result.counts) result.labelled += c;
  return result;
}

}  // namespace tdcone::label
