#include "tdcone/engine/duplicates.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <limits>
#include <span>
#include <stdexcept>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/key_groups.hpp"
#include "tdcone/results/writer.hpp"
#include "tdcone/schema/pair_flags.hpp"
#include "tdcone/schema/results.hpp"

namespace tdcone::engine {

namespace {

template <class T>
void drop(std::vector<T>& values) {
  std::vector<T>().swap(values);
}

}  // namespace

Duplicates Duplicates::find(const boost::mpi::communicator& comm, text::TokenizedShare& corpus,
                            text::TokenizedShare* reference) {
  Duplicates found;
  const std::uint64_t offset = corpus.first_pair_id;
  {
    const std::span<const text::DedupKey> other = reference ? std::span<const text::DedupKey>(reference->pair_keys)
                                                            : std::span<const text::DedupKey>();
    const std::span<const std::uint8_t> other_flags =
        reference ? std::span<const std::uint8_t>(reference->flags) : std::span<const std::uint8_t>();
    mpi::KeyGroups pairs = mpi::group_keys(comm, offset, corpus.pair_keys, corpus.flags, other, other_flags);
    drop(corpus.pair_keys);
    if (reference) {
      drop(reference->pair_keys);
      drop(reference->src_keys);
    }
    found.counts_ = {pairs.later_copies, pairs.in_other, reference != nullptr};
    std::vector<std::pair<std::uint64_t, std::uint64_t>> later;  // (local pair, its first occurrence)
    for (const mpi::KeyGroup& group : pairs.groups) {
      for (std::size_t i = group.pair_id - offset; i < group.pair_id - offset + group.count; ++i) {
        if (group.in_other) corpus.flags[i] |= schema::in_reference;
        if (group.first != offset + i) {
          corpus.flags[i] |= schema::duplicate;
          later.emplace_back(i, group.first);
        }
      }
    }
    std::sort(later.begin(), later.end());
    found.first_of_duplicate_.reserve(later.size());
    for (const auto& [i, first] : later) found.first_of_duplicate_.push_back(first);
  }
  mpi::KeyGroups sources = mpi::group_keys(comm, offset, corpus.src_keys, corpus.flags);
  drop(corpus.src_keys);
  // The groups of two or more that this rank's pairs are in, numbered as they come.
  absl::flat_hash_map<std::uint64_t, std::uint32_t> index_of_first;
  found.src_group_index_.assign(corpus.size(), 0);
  for (const mpi::KeyGroup& group : sources.groups) {
    auto [at, added] = index_of_first.try_emplace(group.first, 0);
    if (added) {
      if (found.src_groups_.size() == std::numeric_limits<std::uint32_t>::max())
        throw std::length_error(cat(Option::dedup, ": more than 2^32 - 1 source groups on one rank; run more ranks"));
      found.src_groups_.emplace_back(group.first, group.size);
      at->second = static_cast<std::uint32_t>(found.src_groups_.size());
    }
    std::fill_n(found.src_group_index_.begin() + static_cast<std::ptrdiff_t>(group.pair_id - offset), group.count, at->second);
  }
  return found;
}

void Duplicates::write(hdf5::OutputFile& file, const text::TokenizedShare& share) const {
  const std::uint64_t offset = share.first_pair_id, total = share.total_lines;
  std::vector<std::uint64_t> column(share.size());
  const auto write_column = [&](const schema::Column& dataset) {
    file.write_column(dataset.path(), std::span<const std::uint64_t>(column), offset, total);
  };
  std::size_t next_duplicate = 0;
  for (std::size_t i = 0; i < share.size(); ++i)
    column[i] = (share.flags[i] & schema::duplicate) ? first_of_duplicate_[next_duplicate++] : offset + i;
  write_column(schema::pairs::dup_of);
  for (std::size_t i = 0; i < share.size(); ++i)
    column[i] = src_group_index_[i] == 0 ? offset + i : src_groups_[src_group_index_[i] - 1].first;
  write_column(schema::pairs::src_group);
  for (std::size_t i = 0; i < share.size(); ++i)
    column[i] = src_group_index_[i] != 0             ? src_groups_[src_group_index_[i] - 1].second
                : (share.flags[i] & schema::bad_line) ? 0
                                                      : 1;
  write_column(schema::pairs::src_group_size);
  results::set_attribute(file, schema::corpus::n_duplicates, counts_.duplicates);
  if (counts_.with_reference) results::set_attribute(file, schema::corpus::n_in_reference, counts_.in_reference);
}

}  // namespace tdcone::engine
