#include "tdcone/io/line_reader.hpp"

#include <sys/stat.h>

#include <zstd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

#include "decoders.hpp"
#include "posix_file.hpp"
#include "tdcone/core/error.hpp"
#include "zstd_format.hpp"

namespace tdcone::io {

namespace {

constexpr std::size_t kReadSize = std::size_t{1} << 20;
constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();
constexpr int kFileStart = -1;  // "byte" before the first byte of a file
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// A file (not a stream) that ends before the size the job recorded at its
// start was cut while it was read: its lines would silently be fewer.
[[noreturn]] void ended_early(const std::string& path, std::uint64_t end, std::uint64_t recorded_size) {
  throw IoError(changed_while_read(
      path, cat("it was cut: it ends at byte ", end, " now, but had ", recorded_size, " bytes when the job started")));
}

// The first '\n' or '\r' in [p, end), or end: either ends a line. Sixteen
// bytes a step where SSE2 exists (all x86-64), as memchr does for '\n'
// alone; a byte loop would be several times slower.
const char* find_line_end_sse2(const char* p, const char* end) {
#ifdef __SSE2__
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  for (; end - p >= 16; p += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if (const unsigned hits = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(bytes, lf), _mm_cmpeq_epi8(bytes, cr))))
      return p + std::countr_zero(hits);
  }
#endif
  return std::find_if(p, end, [](char c) { return c == '\n' || c == '\r'; });
}

#ifdef __x86_64__
// find_line_end_sse2() 32 bytes a step (a line is a few hundred bytes).
[[gnu::target("avx2")]] const char* find_line_end_avx2(const char* p, const char* end) {
  const __m256i lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
  for (; end - p >= 32; p += 32) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    if (const auto hits = static_cast<unsigned>(
            _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(bytes, lf), _mm256_cmpeq_epi8(bytes, cr)))))
      return p + std::countr_zero(hits);
  }
  return find_line_end_sse2(p, end);
}

const bool kHasAvx2 = __builtin_cpu_supports("avx2");
#endif

const char* find_line_end(const char* p, const char* end) {
#ifdef __x86_64__
  if (kHasAvx2) return find_line_end_avx2(p, end);
#endif
  return find_line_end_sse2(p, end);
}

// The bytes of a segment and of everything after it, as one stream (the last
// owned line may run past the segment). Stream positions are file offsets for
// plain files, decompressed offsets from the segment's first frame for zstd
// and offsets from the start for streams.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Writes up to `capacity` bytes to `dst`. May return 0 before the end.
  virtual std::size_t fill(char* dst, std::size_t capacity) = 0;
  virtual bool at_end() const = 0;
  /// The byte before the segment's first byte (0..255), or kFileStart: it
  /// tells whether the segment starts a line.
  virtual int byte_before() = 0;
  /// Stream position where the segment ends, or kUnknown until it is known.
  virtual std::uint64_t segment_end() const = 0;
  /// On-disk bytes of the segment read so far.
  virtual std::uint64_t consumed() const = 0;
  /// Bytes a stream delivered so far (0 for a file).
  virtual std::uint64_t stream_bytes() const { return 0; }
};

class PlainSource final : public ByteSource {
 public:
  PlainSource(const InputFile& input, const Segment& segment)
      : file_(input.path), begin_(segment.begin), end_(segment.end), pos_(segment.begin), size_(input.size) {
    file_.advise_sequential();
  }

  // Never past the size the file had when the job resolved it: a file still
  // being appended to is read as that prefix on every rank.
  std::size_t fill(char* dst, std::size_t capacity) override {
    const std::size_t want = std::min<std::uint64_t>(capacity, size_ - std::min(pos_, size_));
    const std::size_t n = want == 0 ? 0 : file_.read_at(dst, want, pos_);
    if (n < want) ended_early(file_.path(), pos_ + n, size_);
    pos_ += n;
    if (n < capacity) at_end_ = true;
    return n;
  }
  bool at_end() const override { return at_end_; }
  int byte_before() override {
    if (begin_ == 0) return kFileStart;
    unsigned char before = '\n';
    file_.read_at(&before, 1, begin_ - 1);
    return before;
  }
  std::uint64_t segment_end() const override { return end_; }
  std::uint64_t consumed() const override { return std::min(pos_, end_) - begin_; }

 private:
  PosixFile file_;
  std::uint64_t begin_, end_, pos_, size_;
  bool at_end_ = false;
};

// Decompresses frame by frame. Input is read in large chunks, but the decoder
// is only shown the current frame's bytes, so a frame's end is seen exactly
// (its end can then be a segment end).
class ZstdSource final : public ByteSource {
 public:
  ZstdSource(const InputFile& input, const Segment& segment)
      : file_(input.path), offsets_(input.frame_offsets), begin_(segment.begin), end_(segment.end), chunk_(kReadSize) {
    dctx_ = ZSTD_createDCtx();
    if (!dctx_) throw std::bad_alloc();
    file_.advise_sequential();
    seek_frame(begin_);
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }

  std::size_t fill(char* dst, std::size_t capacity) override {
    ZSTD_outBuffer out{dst, capacity, 0};
    while (out.pos < out.size && !at_end()) {
      if (in_.pos == in_.size) load_input();
      const std::size_t in_before = in_.pos, out_before = out.pos;
      const std::size_t ret = ZSTD_decompressStream(dctx_, &out, &in_);
      if (ZSTD_isError(ret)) throw IoError(cat(file_.path(), ": corrupt zstd data in frame ", frame_, ": ", ZSTD_getErrorName(ret)));
      if (ret == 0 && input_offset() == frame_end()) {
        // Frame done (with any skippable frames after it): stop here so that
        // the segment end, if it is this frame's end, is exact.
        if (++frame_ == end_) segment_end_ = produced_ + out.pos;
        break;
      }
      if (in_.pos == in_before && out.pos == out_before)
        throw IoError(cat(file_.path(), ": corrupt zstd data in frame ", frame_, ": truncated frame"));
    }
    produced_ += out.pos;
    return out.pos;
  }
  bool at_end() const override { return frame_ + 1 == offsets_.size(); }

  // The text before frame begin_ ends with the last byte of the nearest
  // non-empty earlier frame (none: the text starts here); decoding it costs
  // one extra frame.
  int byte_before() override {
    int before = kFileStart;
    std::vector<char> scratch(ZSTD_DStreamOutSize());
    for (std::uint64_t j = begin_; before == kFileStart && j-- > 0;) {
      seek_frame(j);
      while (frame_ == j) {
        const std::size_t n = fill(scratch.data(), scratch.size());
        if (n > 0) before = static_cast<unsigned char>(scratch[n - 1]);
      }
    }
    if (frame_ != begin_) seek_frame(begin_);
    produced_ = 0;
    return before;
  }
  std::uint64_t segment_end() const override { return segment_end_; }
  std::uint64_t consumed() const override {
    return std::clamp(input_offset(), offsets_[begin_], offsets_[end_]) - offsets_[begin_];
  }

 private:
  std::uint64_t input_offset() const { return chunk_offset_ + in_.pos; }
  std::uint64_t frame_end() const { return offsets_[frame_ + 1]; }

  void seek_frame(std::uint64_t frame) {
    ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only);
    frame_ = frame;
    chunk_offset_ = offsets_[frame];
    chunk_length_ = 0;
    in_ = {chunk_.data(), 0, 0};
    produced_ = 0;
    segment_end_ = kUnknown;
  }

  // Shows the decoder the next input bytes of the current frame, reading a
  // new chunk when the current one is used up. At the frame's end there is
  // nothing more to show: the decoder only flushes.
  void load_input() {
    const std::uint64_t next = input_offset();
    if (next == frame_end()) return;
    if (in_.size == chunk_length_) {
      chunk_offset_ = next;
      chunk_length_ = file_.read_at(chunk_.data(), chunk_.size(), next);
      if (chunk_length_ < std::min<std::uint64_t>(chunk_.size(), offsets_.back() - next))
        ended_early(file_.path(), next + chunk_length_, offsets_.back());
      in_.pos = 0;
    }
    in_.size = std::min<std::uint64_t>(chunk_length_, frame_end() - chunk_offset_);
  }

  PosixFile file_;
  std::vector<std::uint64_t> offsets_;
  std::uint64_t begin_, end_;
  ZSTD_DCtx* dctx_ = nullptr;
  std::vector<char> chunk_;  // compressed bytes [chunk_offset_, chunk_offset_ + chunk_length_)
  std::uint64_t chunk_offset_ = 0;
  std::size_t chunk_length_ = 0;
  ZSTD_inBuffer in_{};
  std::uint64_t frame_ = 0;     // frame being decoded
  std::uint64_t produced_ = 0;  // decompressed bytes since frame begin_
  std::uint64_t segment_end_ = kUnknown;
};

// A file read front to back as one segment: a pipe, FIFO or procfs file
// (whose first bytes, read before anything is returned, tell its compression),
// or a gzip, xz or bzip2 file (which cannot be cut). Decompressed on the fly.
class DecodingSource final : public ByteSource {
 public:
  explicit DecodingSource(const InputFile& input)
      : file_(input.path), chunk_(kReadSize), stream_(input.stream), compression_(input.compression), size_(input.size) {
    if (!stream_) file_.advise_sequential();
    load_input();
    if (stream_)
      compression_ = detect_compression(reinterpret_cast<const unsigned char*>(chunk_.data()), in_.size);
    if (compression_ != Compression::none) decoder_ = make_decoder(compression_, input.path);
  }

  std::size_t fill(char* dst, std::size_t capacity) override {
    OutputBuffer out{dst, capacity, 0};
    while (out.pos < out.size && !at_end_) {
      if (in_.pos == in_.size && !input_ended_) load_input();
      if (!decoder_) {
        const std::size_t n = std::min(in_.size - in_.pos, out.size - out.pos);
        std::memcpy(dst + out.pos, chunk_.data() + in_.pos, n);
        in_.pos += n;
        out.pos += n;
        at_end_ = in_.pos == in_.size && input_ended_;
        continue;
      }
      const std::size_t in_before = in_.pos, out_before = out.pos;
      decoder_->decode(in_, out, input_ended_);
      if (in_.pos != in_before || out.pos != out_before) continue;
      // No progress with room left: the decoder has flushed all it can.
      if (in_.pos < in_.size)
        throw IoError(cat(file_.path(), ": corrupt ", compression_name(compression_), " data: the decoder is stuck"));
      if (!input_ended_) continue;
      if (!decoder_->complete())
        throw IoError(cat(file_.path(), ": corrupt ", compression_name(compression_), " data: ",
                          compression_ == Compression::zstd ? "truncated frame" : "unexpected end of file (truncated?)"));
      at_end_ = true;
    }
    return out.pos;
  }
  bool at_end() const override { return at_end_; }
  int byte_before() override { return kFileStart; }
  std::uint64_t segment_end() const override { return kUnknown; }
  // On-disk bytes decoded so far; a stream's size is unknown: no share of the progress.
  std::uint64_t consumed() const override { return stream_ ? 0 : chunk_offset_ + in_.pos; }
  std::uint64_t stream_bytes() const override { return stream_ ? chunk_offset_ + in_.size : 0; }

 private:
  // A file (not a stream) up to the size it had when the job resolved it, as PlainSource.
  void load_input() {
    chunk_offset_ += in_.size;
    const std::size_t want = stream_ ? chunk_.size() : std::min<std::uint64_t>(chunk_.size(), size_ - chunk_offset_);
    in_ = {chunk_.data(), want == 0 ? 0 : file_.read(chunk_.data(), want), 0};
    if (!stream_ && in_.size < want) ended_early(file_.path(), chunk_offset_ + in_.size, size_);
    input_ended_ = in_.size < chunk_.size();
  }

  PosixFile file_;
  std::vector<char> chunk_;  // bytes read, not yet passed on: chunk_[in_.pos, in_.size)
  InputBuffer in_{nullptr, 0, 0};
  std::uint64_t chunk_offset_ = 0;  // file offset of chunk_[0]
  bool input_ended_ = false;
  bool stream_;
  Compression compression_;
  std::uint64_t size_;
  std::unique_ptr<Decoder> decoder_;
  bool at_end_ = false;
};

std::unique_ptr<ByteSource> open_source(const InputFile& file, const Segment& segment) {
  if (file.compression == Compression::zstd && !file.stream) return std::make_unique<ZstdSource>(file, segment);
  if (file.stream || file.compression != Compression::none) return std::make_unique<DecodingSource>(file);
  return std::make_unique<PlainSource>(file, segment);
}

}  // namespace

struct LineReader::Impl {
  Impl(const InputFile& file, const Segment& segment, std::uint64_t max_line_bytes)
      : max_line_bytes(max_line_bytes),
        source(open_source(file, segment)),
        segment_bytes(io::segment_bytes(file, segment)),
        buffer(kReadSize) {
    if (!file.stream && file.compression == Compression::none) buffer_start = segment.begin;  // a file offset
    switch (source->byte_before()) {
      case kFileStart: at_file_start = true; break;
      case '\n': break;
      case '\r': after_cr = true; break;  // a '\n' first would end the previous segment's line
      default: skip_line();               // the rest of a line of the previous segment
    }
  }

  bool next(Line& line) {
    if (finished) return false;
    if (after_cr && owns_a_line() && buffer[head] == '\n') ++head;  // "\r\n" is one line end
    after_cr = false;
    if (!owns_a_line()) {
      finished = true;
      return false;
    }
    if (at_file_start) {
      at_file_start = false;
      drop_byte_order_mark();
      if (head == tail && source->at_end()) {  // a file of just a BOM has no lines
        finished = true;
        return false;
      }
    }
    std::size_t scanned = 0;  // bytes after head known to hold no line end
    for (;;) {
      const char* end = buffer.data() + tail;
      if (const char* stop = find_line_end(buffer.data() + head + scanned, end); stop != end) {
        emit(line, stop - buffer.data());
        return true;
      }
      scanned = tail - head;
      if (scanned > max_line_bytes) {  // too long: drop, don't buffer
        skip_line();
        line = Line{{}, true};
        return true;
      }
      if (source->at_end()) {  // a last line without a line end
        emit(line, tail);
        return true;
      }
      refill();
    }
  }

  std::uint64_t position() const { return buffer_start + head; }

  // Whether the next line starts inside the segment; buffers its first byte.
  bool owns_a_line() {
    while (head == tail && !source->at_end() && position() < source->segment_end()) refill();
    return head < tail && position() < source->segment_end();
  }

  // The line is buffer[head, stop); stop is its line end or tail.
  void emit(Line& line, std::size_t stop) {
    const std::size_t length = stop - head;
    line = length > max_line_bytes ? Line{{}, true} : Line{{buffer.data() + head, length}, false};
    pass_line_end(stop);
  }

  // Moves head past the line end at `stop` (or to tail). After a '\r' the next
  // byte is not known yet: next() drops it if it is the '\n' of "\r\n".
  void pass_line_end(std::size_t stop) {
    after_cr = stop < tail && buffer[stop] == '\r';
    head = std::min(stop + 1, tail);
  }

  // Discards bytes up to and including the next line end (or to the end).
  void skip_line() {
    for (;;) {
      const char* end = buffer.data() + tail;
      if (const char* stop = find_line_end(buffer.data() + head, end); stop != end) {
        pass_line_end(stop - buffer.data());
        return;
      }
      head = tail;
      if (source->at_end()) return;
      refill();
    }
  }

  // A byte order mark before the first line of a file is not text. The line
  // still starts at the file's first byte, which decides the segment owning it.
  void drop_byte_order_mark() {
    while (tail - head < kByteOrderMark.size() && !source->at_end()) refill();
    if (std::string_view(buffer.data() + head, tail - head).starts_with(kByteOrderMark)) head += kByteOrderMark.size();
  }

  // Keeps the unread bytes (a partial line), moves them to the front and
  // reads more after them; grows only for a line longer than the buffer.
  void refill() {
    if (head > 0) {
      std::memmove(buffer.data(), buffer.data() + head, tail - head);
      buffer_start += head;
      tail -= head;
      head = 0;
    }
    if (tail == buffer.size()) buffer.resize(buffer.size() * 2);
    tail += source->fill(buffer.data() + tail, buffer.size() - tail);
  }

  std::uint64_t max_line_bytes;
  std::unique_ptr<ByteSource> source;
  std::uint64_t segment_bytes;
  std::vector<char> buffer;
  std::size_t head = 0, tail = 0;  // unread bytes are buffer[head, tail)
  std::uint64_t buffer_start = 0;  // stream position of buffer[0]
  bool at_file_start = false;      // the segment starts the file: a BOM may come first
  bool after_cr = false;           // the last line end read was a '\r'
  bool finished = false;
};

LineReader::LineReader(const InputFile& file, const Segment& segment, std::uint64_t max_line_bytes)
    : impl_(std::make_unique<Impl>(file, segment, max_line_bytes)) {}

LineReader::~LineReader() = default;

bool LineReader::next(Line& line) { return impl_->next(line); }

std::uint64_t LineReader::stream_bytes() const { return impl_->source->stream_bytes(); }

std::uint64_t LineReader::bytes_consumed() const {
  return impl_->finished ? impl_->segment_bytes : impl_->source->consumed();
}

}  // namespace tdcone::io

namespace tdcone::io {

std::optional<std::string> first_nonempty_line(const std::vector<InputFile>& files, std::uint64_t max_line_bytes) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    const InputFile& file = files[i];
    struct stat st;
    if (file.stream && (::stat(file.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))) return std::nullopt;
    Segment whole{i, 0, 1};  // a stream's, or a gzip/xz/bzip2 file's
    if (!file.stream && file.compression == Compression::none) whole.end = file.size;
    if (!file.stream && file.compression == Compression::zstd) whole.end = file.frame_offsets.size() - 1;
    LineReader reader(file, whole, max_line_bytes);
    for (Line line; reader.next(line);) {
      if (line.too_long) return std::nullopt;
      if (!line.text.empty()) return std::string(line.text);
    }
  }
  return std::nullopt;
}

}  // namespace tdcone::io
