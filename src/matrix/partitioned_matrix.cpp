#include "tdcone/matrix/partitioned_matrix.hpp"

#include <algorithm>
#include <bit>

#include "row_table.hpp"
#include "tdcone/core/error.hpp"

// The matrix's layout, its rounds of new cells (placed by row, summed in the
// row table, merged by bucket) and the reading of its rows. The row table is
// in row_table.cpp, the merge in merge.cpp, the cell encoding in cell.cpp.
namespace tdcone::matrix {

namespace {

// At most 64 rows a bucket: with the rows of one rank spread over buckets by
// the low bits of their id, one round's new cells of a bucket and the
// sorting of them stay within a core's L2 cache.
constexpr unsigned kMaxRowBits = 6;

// 48 KiB of 12-byte slots (a key and its weight): a core's L1.
constexpr std::size_t kTableSlotsInL1 = 4096;

}  // namespace

using row_table::add_cells;
using row_table::kSpreadingMultiplier;
using row_table::RowTable;

MatrixLayout MatrixLayout::make(const mpi::GlobalVocabulary& vocabulary, int rank, std::size_t groups) {
  MatrixLayout layout;
  layout.first_row = rank == 0 ? 0 : vocabulary.first_id[rank];
  layout.rows = vocabulary.first_id[rank + 1] - layout.first_row;
  layout.code_columns(std::max(1u, static_cast<unsigned>(std::bit_width(vocabulary.first_id.back() - 1))));
  layout = layout.with_groups(groups);
  const int free_bits = 32 - static_cast<int>(layout.column_bits + layout.group_bits);
  layout.row_bits = static_cast<unsigned>(std::min<int>(free_bits, kMaxRowBits));
  const std::uint32_t rows_per_bucket = std::uint32_t{1} << layout.row_bits;
  layout.buckets = std::bit_ceil(std::max<std::uint32_t>(1, (layout.rows + rows_per_bucket - 1) / rows_per_bucket));
  return layout;
}

MatrixLayout MatrixLayout::with_groups(std::size_t groups) const {
  MatrixLayout layout = *this;
  layout.group_bits = groups > 1 ? static_cast<unsigned>(std::bit_width(groups - 1)) : 0;
  if (layout.column_bits + layout.group_bits + row_bits > 32)
    throw UsageError(cat("too many subsets for the vocabulary: ", groups, " pair groups (shards, threshold bands) and ",
                         (std::uint64_t{1} << column_bits), " word ids do not fit the 32-bit cell key; use at most ",
                         (std::uint64_t{1} << (32 - column_bits - row_bits)), " shards"));
  return layout;
}

PartitionedMatrix::PartitionedMatrix(MatrixLayout layout, WeightScale scale)
    : layout_(layout),
      scale_(scale),
      buckets_(layout.buckets),
      table_format_(layout.table_key_format()),
      stored_format_(layout.stored_cell_format()),
      header_words_(std::max<std::size_t>(std::size_t{1} << layout.row_bits, 2)) {
  for (std::uint32_t n = 1; n < share_of_.size(); ++n) share_of_[n] = scale_.fixed(1.0 / n);
}

template <class ForEachJob>
void PartitionedMatrix::place_jobs(ForEachJob for_each_job) {
  // Counted at row_start_[p + 2] and filled through row_start_[p + 1], which
  // then holds where place p + 1 starts: one array for counts and starts.
  const std::size_t place_count = std::size_t{layout_.buckets} << layout_.row_bits;
  row_start_.assign(place_count + 2, 0);
  const Places place = places();
  std::uint32_t* const starts = row_start_.data();
  for_each_job([place, starts](std::uint32_t row, std::uint32_t, std::uint32_t) { ++starts[place(row) + 2]; });
  for (std::size_t p = 2; p < place_count + 2; ++p) row_start_[p] += row_start_[p - 1];
  // Exactly as many (resize() would double them, and the pages with them);
  // anew for a round less than half as large, so its pages go too.
  const std::size_t jobs = row_start_[place_count + 1];
  if (jobs_.capacity() < jobs || jobs_.capacity() / 2 > jobs) {
    std::vector<PlacedJob>().swap(jobs_);
    jobs_.reserve(jobs);
  }
  jobs_.resize(jobs);
  PlacedJob* const placed = jobs_.data();
  for_each_job([place, starts, placed](std::uint32_t row, std::uint32_t message, std::uint32_t index) {
    placed[starts[place(row) + 1]++] = {message, index};
  });
}

void PartitionedMatrix::add(std::span<const std::uint32_t> words) {
  // The jobs by row straight from the messages: a row's new cells are summed
  // in a table that stays in cache, and a bucket's are sorted and merged in one go.
  place_jobs([words](auto visit) {
    for (std::size_t at = 0; at < words.size();) {
      const pair_message::Reader message(&words[at]);
      const auto offset = static_cast<std::uint32_t>(at);
      message.for_each_row([&visit, offset](std::uint32_t row, std::uint32_t index) { visit(row, offset, index); });
      at += message.length();
    }
  });
  add_placed(words);
}

void PartitionedMatrix::add(std::span<const std::uint32_t> words, std::span<const RowJob> jobs) {
  place_jobs([jobs](auto visit) {
    for (const RowJob& job : jobs) visit(job.row, job.message, job.index);
  });
  add_placed(words);
}

void PartitionedMatrix::add_placed(std::span<const std::uint32_t> words) {
  // The multiplier a constant in the loops: with one group no multiplication
  // stands between a column and the load of its slot.
  if (slot_multiplier() == 1)
    add_placed_by<1>(words);
  else
    add_placed_by<kSpreadingMultiplier>(words);
}

template <std::uint32_t kSlotMultiplier>
void PartitionedMatrix::add_placed_by(std::span<const std::uint32_t> words) {
  const std::size_t place_count = std::size_t{layout_.buckets} << layout_.row_bits;
  const std::size_t rows_per_bucket = std::size_t{1} << layout_.row_bits;
  const std::uint64_t one = scale_.fixed(1.0);
  constexpr std::size_t kPrefetchAhead = 8;  // jobs: their messages are scattered over the receive buffer
  std::uint64_t updates = 0;
  // A bucket's new cells are fresh_[0, n); the current row's, m of them, are
  // summed in the table (table keys and weights side by side; weight 0 is
  // empty, as no weight is 0: WeightScale::fixed) and join them when the row ends.
  // Locals, not members: a member would be loaded again after every store
  // through a pointer (it might be the one written).
  std::size_t n = 0, m = 0;
  RowTable table{};
  auto take_table = [&] { table = {table_keys_.data(), table_weights_.data(), table_slots_}; };
  // Room in the table, at most half full, for `more` new cells of the row.
  auto make_room = [&](std::size_t more) {
    if ((m + more) * 2 > table.slots) {
      grow_table(m + more);
      take_table();
    }
  };
  // The table keys' format in a local too: a member would be loaded again
  // after every store through a pointer.
  const TableKeyFormat table_keys = table_format_;
  auto spread = [&](std::uint32_t table_group, const std::uint32_t* columns, std::uint32_t count, auto weight, bool with_null) {
    return add_cells<kSlotMultiplier>(table, table_group, columns, count, table_keys, weight, with_null);
  };
  const auto constant = [](std::uint64_t w) { return [w](std::size_t) { return w; }; };
  // In locals: the calls in the job loop would have them loaded again every job.
  const PlacedJob* const jobs = jobs_.data();
  const std::size_t job_count = jobs_.size();
  for (std::size_t r = 0; r < place_count; ++r) {
    const std::uint32_t first = row_start_[r], end = row_start_[r + 1];
    if (first < end) {
      // About eight new cells a job, at most a table that fits L1; rows with
      // more grow it. Not larger: the lines a row touches spread with the slots.
      use_table(std::bit_ceil(std::clamp<std::size_t>(std::size_t{16} * (end - first), 16, kTableSlotsInL1)));
      take_table();
      const std::size_t in_bucket = r & (rows_per_bucket - 1);
      const std::uint32_t row = layout_.first_row + static_cast<std::uint32_t>(in_bucket * layout_.buckets + (r >> layout_.row_bits));
      const std::uint32_t base = layout_.row_base(static_cast<std::uint32_t>(in_bucket));  // the row's bits of its keys
      for (std::uint32_t k = first; k < end; ++k) {
        if (k + kPrefetchAhead < job_count) {  // the header and y\x after it: often two cache lines
          const std::uint32_t* ahead = words.data() + jobs[k + kPrefetchAhead].message;
          __builtin_prefetch(ahead);
          __builtin_prefetch(ahead + 15);
        }
        const PlacedJob& job = jobs[k];
        const pair_message::Reader message(words.data() + job.message);
        const std::uint32_t n_yo = message.n_yo(), n_same = message.n_same(), n_xo = message.n_xo();
        const std::uint32_t* yo = message.yo();
        const std::uint32_t table_group = table_keys.group(message.group());
        make_room(std::size_t{n_yo} + 1);
        if (job.index < n_same) {  // rule 1
          m += spread(table_group, &row, 1, constant(one), false);
          ++updates;
        } else if (job.index == n_same + n_xo) {  // rule 3
          m += spread(table_group, yo, n_yo, constant(share_of(n_yo)), false);
          updates += n_yo;
        } else if (message.flags() & pair_message::weighted) {  // rule 2, static
          const std::uint32_t* w = message.weights_of(job.index);
          if (n_yo == 0) m += spread(table_group, yo, 0, constant(one), true), ++updates;  // NULL takes it all
          m += spread(table_group, yo, n_yo, [w](std::size_t t) { return pair_message::Reader::weight(w, t); }, false);
          updates += n_yo;
        } else {  // rule 2, uniform: y\x and NULL (column 0)
          m += spread(table_group, yo, n_yo, constant(share_of(n_yo + 1)), true);
          updates += n_yo + 1;
        }
      }
      // The row's cells join the bucket's in key order, leaving the table
      // empty for the next row: the rows of a bucket come in key order.
      if (n + m > fresh_.size()) fresh_.resize(std::max(n + m, 2 * fresh_.size()));
      n += take_sorted_row(fresh_.data() + n, base);
      m = 0;
    }
    fresh_row_end_[r & (rows_per_bucket - 1)] = static_cast<std::uint32_t>(n);
    // The bucket's last row: its new cells go in.
    if ((r + 1) % rows_per_bucket == 0 && n > 0) {
      merge_into(buckets_[r >> layout_.row_bits], {fresh_.data(), n});
      n = 0;
    }
  }
  cell_updates_ += updates;
}

std::uint64_t PartitionedMatrix::bytes() const {
  return block_bytes_ + merge_peak_ + (fresh_.capacity() + scratch_.capacity()) * sizeof(MatrixCell) + wide_.capacity() * 8 + wide_at_.capacity() * 4 +
         jobs_.capacity() * sizeof(PlacedJob) + table_keys_.capacity() * 4 + table_weights_.capacity() * 8 + (row_start_.capacity() + count_.capacity()) * 4 +
         buckets_.capacity() * sizeof(Bucket);
}

void PartitionedMatrix::finish() {
  // The round scratch goes; the buckets are the sorted rows already.
  // Swapped with empty vectors: `v = {}` would assign an empty list and keep the capacity.
  for (auto* scratch : {&fresh_, &scratch_}) std::vector<MatrixCell>().swap(*scratch);
  std::vector<std::uint64_t>().swap(wide_);
  std::vector<std::uint32_t>().swap(wide_at_);
  std::vector<std::uint32_t>().swap(table_keys_);
  std::vector<std::uint64_t>().swap(table_weights_);
  for (auto* scratch : {&row_start_, &count_}) std::vector<std::uint32_t>().swap(*scratch);
  std::vector<PlacedJob>().swap(jobs_);
  merge_peak_ = 0;
}

bool PartitionedMatrix::RowCursor::next() {
  // The next row with cells: its bucket's row ends say where its cells are.
  const std::size_t rows = std::size_t{1} << m_.layout_.row_bits;
  for (; bucket_ < m_.buckets_.size(); ++bucket_, next_row_ = 0, next_wide_ = 0) {
    const Bucket& bucket = m_.buckets_[bucket_];
    if (bucket.size == 0) continue;
    const std::uint32_t* ends = m_.row_ends(bucket);
    for (; next_row_ < rows; ++next_row_) {
      const std::size_t start = next_row_ == 0 ? 0 : ends[next_row_ - 1], end = ends[next_row_];
      if (start == end) continue;
      bucket_wide_ = m_.wide_list(bucket);
      row_ = m_.cells_of(bucket) + start;
      count_ = end - start;
      copied_ = false;
      first_wide_ = next_wide_;
      while (next_wide_ < bucket.wide && bucket_wide_.place(next_wide_) < end) ++next_wide_;
      position_ = (std::uint64_t{bucket_} << m_.layout_.row_bits) | next_row_;
      row_id_ = m_.layout_.first_row + static_cast<std::uint32_t>(next_row_ * m_.layout_.buckets + bucket_);
      key_base_ = m_.layout_.row_base(static_cast<std::uint32_t>(next_row_));
      ++next_row_;
      return true;
    }
  }
  return false;
}

std::span<const MatrixCell> PartitionedMatrix::RowCursor::cells() const {
  if (!copied_) {
    if (cells_.size() < count_) cells_.resize(count_);
    MatrixCell* out = cells_.data();
    for_each_cell([&out](std::uint32_t key, std::uint64_t weight) { *out++ = {key, weight}; });
    copied_ = true;
  }
  return {cells_.data(), count_};
}

}  // namespace tdcone::matrix
