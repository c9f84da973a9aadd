#include "tdcone/mpi/partitioned_matrix.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

#include "tdcone/core/error.hpp"

namespace tdcone::mpi {

namespace {

// At most 64 rows a bucket: with the rows of one rank spread over buckets by
// the low bits of their id, one round's new cells of a bucket and the
// sorting of them stay within a core's L2 cache.
constexpr unsigned kMaxRowBits = 6;

// Sorts cells by key: least significant digit first, over the bits in
// which the keys differ, in as few passes of at most 13 bits (a count table
// that fits L1) as they take: two for a vocabulary of up to a million words.
void radix_sort(std::vector<MatrixCell>& cells, std::vector<MatrixCell>& scratch) {
  std::uint32_t any = 0, all = ~0u;
  for (const MatrixCell& c : cells) any |= c.key, all &= c.key;
  const unsigned bits = std::bit_width(any ^ all), passes = (bits + 13) / 14;
  if (passes == 0) return;
  const unsigned digit_bits = (bits + passes - 1) / passes;
  const std::uint32_t mask = (1u << digit_bits) - 1;
  static thread_local std::vector<std::uint32_t> count;
  scratch.resize(cells.size());
  for (unsigned d = 0; d < passes; ++d) {
    const unsigned shift = d * digit_bits;
    count.assign(std::size_t{mask} + 1, 0);
    for (const MatrixCell& c : cells) ++count[(c.key >> shift) & mask];
    std::uint32_t sum = 0;
    for (auto& n : count) sum += std::exchange(n, sum);
    for (const MatrixCell& c : cells) scratch[count[(c.key >> shift) & mask]++] = c;
    cells.swap(scratch);
  }
}

// Sums the weights of equal keys of sorted cells, in place.
void combine(std::vector<MatrixCell>& cells) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < cells.size(); ++out) {
    MatrixCell sum = cells[i++];
    for (; i < cells.size() && cells[i].key == sum.key; ++i) sum.weight += cells[i].weight;
    cells[out] = sum;
  }
  cells.resize(out);
}

}  // namespace

WeightScale::WeightScale(std::uint64_t pairs)
    : fraction_bits_(62 - static_cast<int>(std::bit_width(std::max<std::uint64_t>(pairs, 1)))),
      unit_(std::ldexp(1.0, -fraction_bits_)) {}

std::uint64_t WeightScale::fixed(double weight) const {
  const auto units = static_cast<std::uint64_t>(std::llround(std::ldexp(weight, fraction_bits_)));
  return std::max<std::uint64_t>(units, 1);
}

MatrixLayout MatrixLayout::make(const GlobalVocabulary& vocabulary, int rank, std::size_t groups) {
  MatrixLayout layout;
  layout.first_row = rank == 0 ? 0 : vocabulary.first_id[rank];
  layout.rows = vocabulary.first_id[rank + 1] - layout.first_row;
  layout.column_bits = std::max(1, static_cast<int>(std::bit_width(vocabulary.first_id.back() - 1)));
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
    : layout_(layout), scale_(scale), buckets_(layout.buckets) {}

void PartitionedMatrix::merge_into(std::vector<MatrixCell>& cells, const std::vector<MatrixCell>& fresh) {
  merged_.clear();
  std::size_t i = 0, j = 0;
  while (i < cells.size() && j < fresh.size()) {
    if (cells[i].key < fresh[j].key) {
      merged_.push_back(cells[i++]);
    } else if (fresh[j].key < cells[i].key) {
      merged_.push_back(fresh[j++]);
    } else {
      merged_.push_back({cells[i].key, cells[i].weight + fresh[j].weight});
      ++i, ++j;
    }
  }
  merged_.insert(merged_.end(), cells.begin() + static_cast<std::ptrdiff_t>(i), cells.end());
  merged_.insert(merged_.end(), fresh.begin() + static_cast<std::ptrdiff_t>(j), fresh.end());
  bytes_ -= cells.capacity() * sizeof(MatrixCell);
  cells.assign(merged_.begin(), merged_.end());  // exactly sized: no slack kept per bucket
  bytes_ += cells.capacity() * sizeof(MatrixCell);
}

void PartitionedMatrix::add(std::span<const std::uint32_t> words, std::span<const RowJob> jobs) {
  const std::uint32_t bucket_mask = layout_.buckets - 1;
  const unsigned bucket_bits = std::countr_zero(layout_.buckets);
  // Counting sort of the jobs by bucket (copied, so they are then read in
  // order): a bucket's new cells are made, sorted and merged in one go.
  bucket_start_.assign(layout_.buckets + 1, 0);
  for (const RowJob& job : jobs) ++bucket_start_[((job.row - layout_.first_row) & bucket_mask) + 1];
  for (std::size_t b = 0; b < layout_.buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
  sorted_jobs_.resize(jobs.size());
  next_job_.assign(bucket_start_.begin(), bucket_start_.end() - 1);
  for (const RowJob& job : jobs) sorted_jobs_[next_job_[(job.row - layout_.first_row) & bucket_mask]++] = job;

  const unsigned column_shift = layout_.group_bits, row_shift = layout_.column_bits + layout_.group_bits;
  const std::uint64_t one = scale_.fixed(1.0);
  constexpr std::size_t kPrefetchAhead = 8;  // jobs: their messages are scattered over the receive buffer
  for (std::size_t b = 0; b < layout_.buckets; ++b) {
    if (bucket_start_[b] == bucket_start_[b + 1]) continue;
    fresh_.clear();
    auto spread = [this, column_shift](std::uint32_t base, const std::uint32_t* columns, std::uint32_t n, auto weight) {
      for (std::uint32_t t = 0; t < n; ++t) fresh_.push_back({base | (columns[t] << column_shift), weight(t)});
    };
    for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
      if (k + kPrefetchAhead < sorted_jobs_.size()) __builtin_prefetch(words.data() + sorted_jobs_[k + kPrefetchAhead].message);
      const RowJob& job = sorted_jobs_[k];
      const std::uint32_t* header = words.data() + job.message;
      const std::uint32_t group = header[0], n_yo = header[1], n_same = header[2], n_rows = header[3], flags = header[4];
      const std::uint32_t* yo = header + pair_rows::kHeaderWords;
      const auto base = static_cast<std::uint32_t>((std::uint64_t{(job.row - layout_.first_row) >> bucket_bits} << row_shift) | group);
      if (job.index < n_same) {  // rule 1
        fresh_.push_back({base | (job.row << column_shift), one});
      } else if (job.index == n_same + n_rows) {  // rule 3
        const std::uint64_t share = scale_.fixed(1.0 / n_yo);
        spread(base, yo, n_yo, [share](std::uint32_t) { return share; });
      } else if (flags & pair_rows::weighted) {  // rule 2, static
        if (n_yo == 0) fresh_.push_back({base, one});
        const std::uint32_t* w = yo + n_yo + n_same + n_rows + std::size_t{2} * (job.index - n_same) * n_yo;
        spread(base, yo, n_yo, [w](std::uint32_t t) { return w[2 * t] | (std::uint64_t{w[2 * t + 1]} << 32); });
      } else {  // rule 2, uniform
        const std::uint64_t share = scale_.fixed(1.0 / (n_yo + 1.0));
        spread(base, yo, n_yo, [share](std::uint32_t) { return share; });
        fresh_.push_back({base, share});  // column 0: NULL
      }
    }
    radix_sort(fresh_, scratch_);
    combine(fresh_);
    merge_into(buckets_[b], fresh_);
  }
}

std::uint64_t PartitionedMatrix::bytes() const {
  return bytes_ + (fresh_.capacity() + scratch_.capacity() + merged_.capacity()) * sizeof(MatrixCell) +
         sorted_jobs_.capacity() * sizeof(RowJob) + (bucket_start_.capacity() + next_job_.capacity()) * 4 +
         buckets_.capacity() * sizeof(buckets_[0]);
}

std::uint64_t PartitionedMatrix::nnz() const {
  std::uint64_t n = 0;
  for (const auto& cells : buckets_) n += cells.size();
  return n;
}

void PartitionedMatrix::finish() {
  // The round scratch buffers go; the buckets are the sorted rows already.
  for (auto* scratch : {&fresh_, &scratch_, &merged_}) *scratch = {};
  sorted_jobs_ = {};
}

bool PartitionedMatrix::RowCursor::next() {
  const unsigned row_shift = m_.layout_.column_bits + m_.layout_.group_bits;
  while (bucket_ < m_.buckets_.size() && at_ >= m_.buckets_[bucket_].size()) ++bucket_, at_ = 0;
  if (bucket_ == m_.buckets_.size()) return false;
  const auto& cells = m_.buckets_[bucket_];
  const std::uint64_t row = std::uint64_t{cells[at_].key} >> row_shift;
  std::size_t end = at_;
  while (end < cells.size() && (std::uint64_t{cells[end].key} >> row_shift) == row) ++end;
  cells_ = {cells.data() + at_, end - at_};
  position_ = (std::uint64_t{bucket_} << m_.layout_.row_bits) | row;
  row_id_ = m_.layout_.first_row + static_cast<std::uint32_t>(row * m_.layout_.buckets + bucket_);
  at_ = end;
  return true;
}

}  // namespace tdcone::mpi
