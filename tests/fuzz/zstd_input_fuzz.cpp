// Input files, plain or compressed (zstd; gzip, xz, bzip2 without an oracle), read as the ranks read their shares: the frame
// scan (resolve_inputs, which refuses an HDF5 file), the cut (plan_share) and LineReader over every
// segment. Any number of ranks must read the lines of the whole text, each once.
#include <zstd.h>

#include <optional>
#include <vector>

#include "fuzz_input.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"

using namespace tdcone;

namespace {

constexpr std::uint64_t kMaxLineBytes = 64;  // small, so that inputs have too-long lines
constexpr std::size_t kMaxText = std::size_t{1} << 22;  // bigger texts are skipped: slow, no more coverage

using Lines = std::vector<std::optional<std::string>>;  // nullopt: a too-long line

Lines read_ranks(const std::vector<io::InputFile>& files, int n_ranks) {
  Lines lines;
  for (int rank = 0; rank < n_ranks; ++rank)
    for (const io::Segment& segment : io::plan_share(files, rank, n_ranks)) {
      io::LineReader reader(files[segment.file], segment, kMaxLineBytes);
      for (io::Line line; reader.next(line);)
        lines.push_back(line.too_long ? std::nullopt : std::optional<std::string>(line.text));
    }
  return lines;
}

// What zstd itself decodes from a whole input (skippable frames skipped):
// nullopt when it rejects the input, too_large when it is not worth reading.
struct Text {
  std::optional<std::string> text;
  bool too_large = false;
};

Text decompress(std::string_view input) {
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  Text result{std::string()};
  std::size_t ret = 0;
  char chunk[1 << 16];
  for (bool progress = true; progress && (in.pos < in.size || ret != 0) && !result.too_large;) {
    ZSTD_outBuffer out{chunk, sizeof chunk, 0};
    const std::size_t in_before = in.pos;
    ret = ZSTD_decompressStream(dctx, &out, &in);
    if (ZSTD_isError(ret)) break;
    result.text->append(chunk, out.pos);
    result.too_large = result.text->size() > kMaxText;
    progress = in.pos > in_before || out.pos > 0;
  }
  ZSTD_freeDCtx(dctx);
  if (ZSTD_isError(ret) || ret != 0 || in.pos < in.size) result.text.reset();
  return result;
}

// The lines LineReader documents: a UTF-8 byte order mark at the very start
// dropped; '\n', "\r\n" and a lone '\r' end a line; a last line without an
// end counted; longer than kMaxLineBytes flagged.
Lines expected_lines(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  Lines lines;
  while (!text.empty()) {
    const std::size_t end = text.find_first_of("\r\n");
    const std::string_view line = text.substr(0, end);
    lines.push_back(line.size() > kMaxLineBytes ? std::nullopt : std::optional<std::string>(line));
    if (end == std::string_view::npos) break;
    const bool crlf = text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n';
    text.remove_prefix(end + (crlf ? 2 : 1));
  }
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_text(data, size);
  std::vector<io::InputFile> files;
  try {
    files = io::resolve_inputs({fuzz::as_file(data, size)});
  } catch (const IoError&) {
    return 0;  // the frame scan found corrupt zstd: the documented error
  } catch (const UsageError&) {
    FUZZ_CHECK(input.starts_with("\x89HDF\r\n\x1a\n"));  // refused only as an HDF5 file given as a corpus
    return 0;
  }
  if (files[0].compression != io::Compression::zstd && files[0].compression != io::Compression::none) {
    // gzip, xz, bzip2 (the fuzzer finds their magic): no oracle here, but the
    // reader refuses with IoError only, and any rank count reads the same lines.
    Lines lines;
    try {
      lines = read_ranks(files, 1);
    } catch (const IoError&) {
      return 0;
    }
    for (int n_ranks : {2, 3}) FUZZ_CHECK(read_ranks(files, n_ranks) == lines);
    return 0;
  }
  const Text whole = files[0].compression == io::Compression::zstd ? decompress(input) : Text{std::string(input)};
  if (whole.too_large) return 0;
  Lines lines;
  try {
    lines = read_ranks(files, 1);
  } catch (const IoError&) {
    FUZZ_CHECK(!whole.text);  // the reader refuses only what zstd refuses
    return 0;
  }
  FUZZ_CHECK(whole.text && lines == expected_lines(*whole.text));
  for (int n_ranks : {2, 3}) FUZZ_CHECK(read_ranks(files, n_ranks) == lines);
  return 0;
}
