#include "tdcone/mpi/partitioned_matrix.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

#include "tdcone/error.hpp"

namespace tdcone::mpi {

namespace {

// At most 64 rows a bucket: with the rows of one rank spread over buckets by
// the low bits of their id, a bucket's table stays within a core's L2 cache
// for most buckets of a Twitter-sized corpus.
constexpr unsigned kMaxRowBits = 6;
constexpr std::size_t kFirstCapacity = 16;

// Sorts cells by key, least significant byte first, skipping bytes all keys share.
void radix_sort(std::vector<MatrixCell>& cells, std::vector<MatrixCell>& scratch) {
  std::array<std::array<std::uint32_t, 256>, 4> counts{};
  for (const MatrixCell& c : cells)
    for (int d = 0; d < 4; ++d) ++counts[d][(c.key >> (8 * d)) & 0xff];
  scratch.resize(cells.size());
  for (int d = 0; d < 4; ++d) {
    auto& count = counts[d];
    if (std::find(count.begin(), count.end(), cells.size()) != count.end()) continue;
    std::uint32_t sum = 0;
    for (auto& c : count) sum += std::exchange(c, sum);
    for (const MatrixCell& c : cells) scratch[count[(c.key >> (8 * d)) & 0xff]++] = c;
    cells.swap(scratch);
  }
}

}  // namespace

WeightScale::WeightScale(std::uint64_t pairs) : fraction_bits_(63 - static_cast<int>(std::bit_width(std::max<std::uint64_t>(pairs, 1)))) {}

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

void PartitionedMatrix::grow(Bucket& bucket) {
  std::vector<MatrixCell> old = std::move(bucket.slots);
  bytes_ -= old.capacity() * sizeof(MatrixCell);
  bucket.slots.assign(old.empty() ? kFirstCapacity : 2 * old.size(), MatrixCell{0, 0});
  bytes_ += bucket.slots.capacity() * sizeof(MatrixCell);
  bucket.used = 0;
  for (const MatrixCell& c : old)
    if (c.weight != 0) insert(bucket, c.key, c.weight);
}

inline void PartitionedMatrix::insert(Bucket& bucket, std::uint32_t key, std::uint64_t weight) {
  // Linear probing up to 7/8 full: probes stay within a cache line or two.
  if (8 * (bucket.used + 1) > 7 * bucket.slots.size()) grow(bucket);
  const std::size_t mask = bucket.slots.size() - 1;
  const unsigned shift = 32 - std::countr_zero(bucket.slots.size());
  std::size_t i = (key * 0x9E3779B1u) >> shift;
  for (;; i = (i + 1) & mask) {
    MatrixCell& slot = bucket.slots[i];
    if (slot.weight == 0) {
      slot.key = key;
      slot.weight = weight;
      ++bucket.used;
      return;
    }
    if (slot.key == key) {
      slot.weight += weight;
      return;
    }
  }
}

void PartitionedMatrix::add(std::span<const RowJob> jobs) {
  const std::uint32_t bucket_mask = layout_.buckets - 1;
  const unsigned bucket_bits = std::countr_zero(layout_.buckets);
  // Counting sort of the jobs by bucket, so each table is hot while it is filled.
  bucket_start_.assign(layout_.buckets + 1, 0);
  for (const RowJob& job : jobs) ++bucket_start_[((job.row - layout_.first_row) & bucket_mask) + 1];
  for (std::size_t b = 0; b < layout_.buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
  job_order_.resize(jobs.size());
  {
    std::vector<std::uint32_t> next(bucket_start_.begin(), bucket_start_.end() - 1);
    for (std::uint32_t j = 0; j < jobs.size(); ++j) job_order_[next[(jobs[j].row - layout_.first_row) & bucket_mask]++] = j;
  }

  const unsigned column_shift = layout_.group_bits, row_shift = layout_.column_bits + layout_.group_bits;
  const std::uint64_t one = scale_.fixed(1.0);
  for (std::size_t b = 0; b < layout_.buckets; ++b) {
    Bucket& bucket = buckets_[b];
    for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
      const RowJob& job = jobs[job_order_[k]];
      const auto base = static_cast<std::uint32_t>((std::uint64_t{(job.row - layout_.first_row) >> bucket_bits} << row_shift) | job.group);
      switch (job.kind) {
        case RowJob::same:
          insert(bucket, base | (job.row << column_shift), one);
          break;
        case RowJob::spread: {
          const std::uint64_t share = scale_.fixed(1.0 / (job.n_yo + 1.0));
          for (std::uint32_t t = 0; t < job.n_yo; ++t) insert(bucket, base | (job.yo[t] << column_shift), share);
          insert(bucket, base, share);  // column 0: NULL
          break;
        }
        case RowJob::weighted:
          if (job.n_yo == 0) insert(bucket, base, one);
          for (std::uint32_t t = 0; t < job.n_yo; ++t)
            insert(bucket, base | (job.yo[t] << column_shift),
                   job.weights[2 * t] | (std::uint64_t{job.weights[2 * t + 1]} << 32));
          break;
        case RowJob::from_null: {
          const std::uint64_t share = scale_.fixed(1.0 / job.n_yo);
          for (std::uint32_t t = 0; t < job.n_yo; ++t) insert(bucket, base | (job.yo[t] << column_shift), share);
          break;
        }
      }
    }
  }
}

void PartitionedMatrix::finish() {
  std::vector<MatrixCell> scratch;
  for (Bucket& bucket : buckets_) {
    bytes_ -= bucket.slots.capacity() * sizeof(MatrixCell);
    std::vector<MatrixCell> cells;
    cells.reserve(bucket.used);
    for (const MatrixCell& c : bucket.slots)
      if (c.weight != 0) cells.push_back(c);
    bucket.slots = {};
    radix_sort(cells, scratch);
    bytes_ += cells.capacity() * sizeof(MatrixCell);
    bucket.slots = std::move(cells);
  }
}

std::uint64_t PartitionedMatrix::nnz() const {
  std::uint64_t n = 0;
  for (const Bucket& b : buckets_) n += b.used;
  return n;
}

bool PartitionedMatrix::RowCursor::next() {
  const unsigned row_shift = m_.layout_.column_bits + m_.layout_.group_bits;
  while (bucket_ < m_.buckets_.size() && at_ >= m_.buckets_[bucket_].slots.size()) ++bucket_, at_ = 0;
  if (bucket_ == m_.buckets_.size()) return false;
  const auto& cells = m_.buckets_[bucket_].slots;
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
