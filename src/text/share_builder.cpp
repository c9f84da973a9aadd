#include "tdcone/text/share_builder.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "tdcone/core/error.hpp"

namespace tdcone::text {

namespace {

io::FieldSpec whole_line_spec() {
  io::FieldSpec spec;
  spec.format = io::Format::line;
  return spec;
}

// The interner of the labels of `options`, or none without labels.
std::unique_ptr<LabelInterner> make_interner(const ReadOptions& options) {
  if (options.fields.label_count() == 0) return nullptr;
  if (!options.label_interner) throw std::logic_error("read_share: labels without ReadOptions::label_interner");
  return options.label_interner(options.labels);
}

using Lanes = std::int32_t __attribute__((vector_size(32)));

// A key is an id and its position in the sentence, in the low bits.
constexpr int kPositionBits = 6;

// Sorts the n <= 8 * kBlocks ids at `ids` by rank: each id goes to the number
// of ids that come before it, counted without branches (an insertion sort's
// comparisons are branches the CPU cannot predict). The keys (id, position)
// are distinct, so the ranks are all counted at once, eight lanes a step:
// each key in turn against every block of eight keys, the blocks and the
// counts in registers. The keys past n are the largest, so they count for no
// rank, and every loop but the last runs 8 * kBlocks times: a loop of n
// steps was mispredicted at its end, n changing sentence by sentence.
template <int kBlocks>
[[gnu::always_inline]] inline void sort_by_rank(WordId* ids, std::ptrdiff_t n) {
  constexpr int kKeys = 8 * kBlocks;
  alignas(32) std::int32_t keys[kKeys];
  for (int i = 0; i < kKeys; ++i) {  // reading only ids[0, n)
    const auto key = static_cast<std::int32_t>(ids[std::min<std::ptrdiff_t>(i, n - 1)] << kPositionBits | static_cast<WordId>(i));
    keys[i] = i < n ? key : std::numeric_limits<std::int32_t>::max();
  }
  Lanes key_blocks[kBlocks], rank_blocks[kBlocks] = {};
  std::memcpy(key_blocks, keys, sizeof key_blocks);
  for (int j = 0; j < kKeys; ++j) {
    const Lanes key = Lanes{} + keys[j];
    for (int b = 0; b < kBlocks; ++b) rank_blocks[b] -= key_blocks[b] > key;  // a true lane is -1
  }
  alignas(32) std::int32_t ranks[kKeys];
  std::memcpy(ranks, rank_blocks, sizeof ranks);
  for (std::ptrdiff_t i = 0; i < n; ++i) ids[ranks[i]] = static_cast<WordId>(keys[i] >> kPositionBits);
}

// Sorts a sentence's ids: one of at most 64 words (nearly all) by rank, in
// blocks of eight keys (with AVX2 where the CPU has it, a block is one
// instruction instead of two). `max_id`: no id is larger (the positions must
// fit beside the ids).
[[gnu::target_clones("avx2", "default")]] void sort_ids(std::vector<WordId>::iterator first,
                                                        std::vector<WordId>::iterator last, std::size_t max_id) {
  const std::ptrdiff_t n = last - first;
  if (n < 2) return;
  if (n > 64 || max_id >= (std::size_t{1} << (31 - kPositionBits))) {
    std::sort(first, last);
    return;
  }
  WordId* ids = &*first;
  switch ((n + 7) / 8) {
    case 1: sort_by_rank<1>(ids, n); break;
    case 2: sort_by_rank<2>(ids, n); break;
    case 3: sort_by_rank<3>(ids, n); break;
    case 4: sort_by_rank<4>(ids, n); break;
    case 5: sort_by_rank<5>(ids, n); break;
    case 6: sort_by_rank<6>(ids, n); break;
    case 7: sort_by_rank<7>(ids, n); break;
    default: sort_by_rank<8>(ids, n); break;
  }
}

}  // namespace

ShareBuilder::ShareBuilder(TokenizedShare& share, const ReadOptions& options, Vocabulary& vocabulary)
    : share_(share), options_(options), vocabulary_(vocabulary), parser_(options.fields),
      whole_line_(whole_line_spec()), tokenizer_(options.tokenizer), dedup_(options.dedup),
      labels_(make_interner(options)),
      diversity_(options.diversity ? std::make_unique<DiversityBuilder>(share.diversity) : nullptr) {}

ShareBuilder::~ShareBuilder() = default;

std::string ShareBuilder::too_long() const { return cat("line longer than ", Option::max_line_bytes, " (", options_.max_line_bytes, ")"); }

void ShareBuilder::finish() {
  if (diversity_) diversity_->finish();
  if (labels_) share_.label_values = labels_->take_values();
}

// The pairs after which the share's proportions are taken: a few hundred
// KiB of text, enough for the bytes per pair and per type.
constexpr std::size_t kSamplePairs = 4096;

void ShareBuilder::reserve_rest() {
  if (expected_bytes_ <= added_bytes_ || added_bytes_ == 0) return;
  const double scale = 1.0625 * static_cast<double>(expected_bytes_) / static_cast<double>(added_bytes_);  // a sixteenth to spare
  const auto scaled = [scale](std::size_t n) { return static_cast<std::size_t>(static_cast<double>(n) * scale); };
  const auto reserve = [scaled](auto&... vectors) { (vectors.reserve(scaled(vectors.size())), ...); };
  reserve(share_.flags, share_.src_len, share_.tgt_len, share_.scores, share_.type_start, share_.type_count, share_.types,
          share_.type_counts, share_.src_hash, share_.tgt_hash, share_.label_ids, share_.pair_keys, share_.src_keys);
  if (diversity_) share_.diversity.reserve(share_.flags.capacity());
  if (options_.fields.has_id()) share_.ids.reserve(share_.flags.capacity(), scaled(share_.ids.chars()));
}

std::string ShareBuilder::add(const io::Line& line) {
  added_bytes_ += line.text.size() + 1;  // and its line end
  if (share_.size() + 1 == kSamplePairs) reserve_rest();
  if (line.too_long) return flag(too_long());
  io::Record record;
  std::string reason = parser_.parse(line.text, record);
  if (!reason.empty()) return flag(std::move(reason));
  return add_record(record);
}

std::string ShareBuilder::add_pair(const io::Line& src, const io::Line& tgt, bool& tgt_side) {
  tgt_side = false;
  if (src.too_long) return flag(too_long());
  std::string reason = whole_line_.parse(src.text, src_record_);
  if (!reason.empty()) return flag(std::move(reason));
  tgt_side = true;
  if (tgt.too_long) return flag(too_long());
  reason = whole_line_.parse(tgt.text, tgt_record_);
  if (!reason.empty()) return flag(std::move(reason));
  tgt_side = false;
  io::Record record;
  record.src = src.text;
  record.tgt = tgt.text;
  return add_record(record);
}

std::string ShareBuilder::add_record(io::Record& record) {
  label_problem_.clear();
  if (options_.reverse) std::swap(record.src, record.tgt);
  share_.flags.push_back(0);
  // The same text on both sides (one-sided lines in selection) is tokenized
  // once, its types the output's too. The last output read is then not one
  // a later output may repeat: its types may be before these.
  const bool same_text = record.src.data() == record.tgt.data() && record.src.size() == record.tgt.size();
  share_.src_len.push_back(add_side(record.src, last_src_, src));
  if (same_text) {
    last_tgt_.known = false;
    share_.tgt_len.push_back(repeat_side(share_.type_start.size() - 1, share_.src_len.back()));
  } else {
    share_.tgt_len.push_back(add_side(record.tgt, last_tgt_, tgt));
  }
  if (options_.keep_counts) {
    share_.src_hash.push_back(XXH3_64bits(record.src.data(), record.src.size()));
    share_.tgt_hash.push_back(same_text ? share_.src_hash.back() : XXH3_64bits(record.tgt.data(), record.tgt.size()));
  }
  if (diversity_) diversity_->add_pair(share_.tgt_len.back(), same_text);
  if (options_.dedup != DedupMode::none) {
    const DedupKey& tgt_key = same_text ? last_src_.key : last_tgt_.key;
    share_.pair_keys.push_back(DedupKeyMaker::pair_key(last_src_.key, tgt_key));
    share_.src_keys.push_back(last_src_.key);
  }
  if (options_.fields.has_score()) share_.scores.push_back(record.score);
  if (options_.fields.has_id()) share_.ids.push_back(record.id);
  if (labels_) add_labels(record);
  return {};
}

// A missing or unusable label flags the pair; it stays a pair.
void ShareBuilder::add_labels(const io::Record& record) {
  label_problem_ = record.label_problem.empty() ? labels_->add(record.labels, share_.label_ids)
                                                : std::string(record.label_problem);
  if (label_problem_.empty()) return;
  if (!record.label_problem.empty()) labels_->add_none(share_.label_ids);
  share_.flags.back() |= schema::no_label;
}

std::string ShareBuilder::flag(std::string reason) {
  label_problem_.clear();
  if (labels_) labels_->add_none(share_.label_ids);
  share_.flags.push_back(schema::bad_line);
  share_.src_len.push_back(0);
  share_.tgt_len.push_back(0);
  if (diversity_) diversity_->add_bad_line();
  // No number stands in for the score of a line that could not be read: NaN
  // fails every comparison, so no filter or threshold takes a bad line for a low score.
  if (options_.fields.has_score()) share_.scores.push_back(std::numeric_limits<double>::quiet_NaN());
  if (options_.fields.has_id()) share_.ids.push_back({});
  // Empty sides, placed at the last sides read, which later pairs may
  // repeat: the types before a pair's sides are never read after it
  // (TokenizedShare::release_types_before).
  for (const LastSentence* last : {&last_src_, &last_tgt_})
    share_.type_start.push_back(last->known ? share_.type_start[last->side] : share_.types.size());
  share_.type_count.insert(share_.type_count.end(), 2, 0);
  if (options_.keep_counts) {
    share_.src_hash.push_back(0);
    share_.tgt_hash.push_back(0);
  }
  if (options_.dedup != DedupMode::none) {
    share_.pair_keys.emplace_back();
    share_.src_keys.emplace_back();
  }
  return reason;
}

std::uint32_t ShareBuilder::add_side(std::string_view sentence, LastSentence& last, Side side) {
  if (last.known && sentence == last.text) return repeat_side(last.side, last.length);
  last.length = add_types(sentence, side);
  last.side = share_.type_start.size() - 1;
  // The vocabulary still holds the hashes of this side's words (add_types' intern).
  if (options_.dedup != DedupMode::none) last.key = dedup_.side_key(sentence, vocabulary_, last.length);
  last.text.assign(sentence);
  last.known = true;
  return last.length;
}

std::uint32_t ShareBuilder::add_types(std::string_view sentence, Side side) {
  tokenizer_.tokenize(sentence, tokens_);
  const std::size_t start = share_.types.size();
  vocabulary_.intern(tokens_, share_.types);
  const auto first = share_.types.begin() + static_cast<std::ptrdiff_t>(start);
  const std::span<const WordId> in_order(share_.types.data() + start, tokens_.size());  // before they become a sorted set
  if (diversity_) diversity_->side_read(side == src, in_order, sentence);
  sort_ids(first, share_.types.end(), vocabulary_.size());
  if (options_.keep_counts) {  // run lengths of the sorted tokens
    std::size_t out = start;
    for (std::size_t i = start; i < share_.types.size();) {
      std::size_t j = i;
      while (j < share_.types.size() && share_.types[j] == share_.types[i]) ++j;
      share_.types[out++] = share_.types[i];
      share_.type_counts.push_back(static_cast<std::uint32_t>(j - i));
      i = j;
    }
    share_.types.resize(out);
  } else {  // each id written, the end moved past it only if new: no branch on whether ids repeat
    WordId* kept = share_.types.data() + start;
    const WordId* const end = share_.types.data() + share_.types.size();
    if (kept != end) {
      for (const WordId* id = kept + 1; id != end; ++id) {
        const WordId word = *id;
        kept += word != *kept;
        *kept = word;
      }
      share_.types.resize(static_cast<std::size_t>(kept + 1 - share_.types.data()));
    }
  }
  share_.type_start.push_back(start);
  share_.type_count.push_back(static_cast<std::uint32_t>(share_.types.size() - start));
  return static_cast<std::uint32_t>(tokens_.size());
}

// An earlier side of the share once more: the next side is its types (and
// counts), not a copy. Returns its `length`.
std::uint32_t ShareBuilder::repeat_side(std::size_t side, std::uint32_t length) {
  share_.type_start.push_back(share_.type_start[side]);
  share_.type_count.push_back(share_.type_count[side]);
  return length;
}

}  // namespace tdcone::text
