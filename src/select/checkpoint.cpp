#include "tdcone/select/checkpoint.hpp"

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/vector.hpp>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "tdcone/core/error.hpp"
#include "tdcone/io/zstd_writer.hpp"

namespace tdcone::select {

namespace {

constexpr std::string_view kMagic = "tdcone-checkpoint-";  // then the format version and '\n'
constexpr std::string_view kVersion = "2";
constexpr std::size_t kLongestVersion = 8;
constexpr std::size_t kChecksumBytes = sizeof(XXH128_canonical_t);
static_assert(sizeof(Fingerprint) == 5 * sizeof(std::uint64_t), "stored as it is in memory");
// No Boost header: the file has its own, and Boost's would be read with a
// length prefix that a damaged file could make any size.
constexpr unsigned kArchiveFlags = boost::archive::no_header;

UsageError missing(const std::string& path) {
  return UsageError(cat("cannot read checkpoint ", path, " (", Option::resume, " needs the checkpoint file of an earlier run)"));
}

// A regular file that starts like a checkpoint of any format version: one
// that may be replaced or removed.
bool is_checkpoint(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(kMagic.size(), '\0');
  return in.read(head.data(), static_cast<std::streamsize>(head.size())) && head == kMagic;
}

// Writes `bytes` to a new file beside `path` (never over another one: mkstemp
// creates it with O_EXCL, so not through a link), then renames it to `path`;
// synced first, so a crash leaves the old checkpoint or the new one. Returns
// the identity of the file written.
FileIdentity replace_file(const std::string& path, const std::string& bytes) {
  std::string partial = path + ".partial-XXXXXX";
  const int fd = ::mkstemp(partial.data());
  if (fd < 0) throw IoError(cat("cannot write checkpoint ", path, ": ", std::strerror(errno)));
  bool ok = true;
  for (std::size_t at = 0; ok && at < bytes.size();) {
    const ssize_t written = ::write(fd, bytes.data() + at, bytes.size() - at);
    ok = written > 0 || (written < 0 && errno == EINTR);
    if (written > 0) at += static_cast<std::size_t>(written);
  }
  ok = ok && ::fsync(fd) == 0;
  struct stat written;
  ok = ok && ::fstat(fd, &written) == 0;
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(partial.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(partial.c_str());
    throw IoError(cat("cannot write checkpoint ", path, ": ", why));
  }
  return {static_cast<std::uint64_t>(written.st_dev), static_cast<std::uint64_t>(written.st_ino)};
}

// The parts of `expected` that `found` does not match, for the user.
std::string differences(const Fingerprint& found, const Fingerprint& expected) {
  std::string parts;
  const auto differs = [&](std::uint64_t a, std::uint64_t b, const std::string& what) {
    if (a != b) (parts += parts.empty() ? "" : ", ") += what;
  };
  differs(found.options, expected.options, "options");
  differs(found.representative, expected.representative, cat(Option::representative, " lines"));
  differs(found.available, expected.available, cat(Option::available, " lines"));
  differs(found.unadapted, expected.unadapted, cat(Option::unadapted, " lines"));
  differs(found.seed, expected.seed, cat(Option::seed_corpus, " lines"));
  return parts;
}

// What is wrong with the indices and the ranking of a state, or "" (checks
// that need the lines themselves are select_lines'). A state with a valid
// checksum fails them only through a bug or a forgery, but never reaches use.
std::string invalid_state(const SelectionState& s, const CheckpointKey& key) {
  if (s.counts.size() != key.lexicon_size)
    return cat("a model of ", s.counts.size(), " words for a lexicon of ", key.lexicon_size);
  if (!std::isfinite(s.tokens) || !std::isfinite(s.log_sum) || !std::isfinite(s.h_initial))
    return "a model that is not finite";
  if (s.ranked.size() > key.available_lines)
    return cat(s.ranked.size(), " ranked lines of ", key.available_lines, " AVAIL lines");
  std::vector<bool> seen(key.available_lines, false);
  double best_h = s.h_initial;  // the lowest H so far and where, as the selection tracks them
  std::uint64_t stop_rank = 0;
  for (std::size_t n = 0; n < s.ranked.size(); ++n) {
    const RankedLine& r = s.ranked[n];
    if (r.pair_id >= key.available_lines || seen[r.pair_id])
      return cat("rank ", n + 1, " has pair_id ", r.pair_id, ", not a new line of the ", key.available_lines,
                 " AVAIL lines");
    seen[r.pair_id] = true;
    if (r.root_word >= key.lexicon_size)
      return cat("rank ", n + 1, " has root word ", r.root_word, " of a lexicon of ", key.lexicon_size);
    // ΔH = penalty (≥ 0) + gain (≤ 0), as the selection adds them; WGE ≤ 0.
    const bool scores_add_up = std::isfinite(r.delta_h) && std::isfinite(r.penalty) && r.penalty >= 0 &&
                               r.gain <= 0 && r.delta_h == r.penalty + r.gain && std::isfinite(r.wge) && r.wge <= 0;
    if (!scores_add_up || !std::isfinite(r.cross_entropy)) return cat("rank ", n + 1, " has scores that do not add up");
    if (r.cross_entropy < best_h) {
      best_h = r.cross_entropy;
      stop_rank = n + 1;
    }
  }
  if (s.best_h != best_h || s.stop_rank != stop_rank) return cat("stop rank ", s.stop_rank, " is not where H is lowest");
  return {};
}

// Reads the checkpoint `path` into `bytes`, checks its magic, format version
// and checksum, and sets `fingerprint`; returns where its zstd frame starts.
// Throws UsageError saying what is wrong, then `what_to_do`.
std::size_t verified_header(const std::string& path, std::string& bytes, Fingerprint& fingerprint,
                            const std::string& what_to_do) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw missing(path);
  std::ifstream in(path, std::ios::binary);
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in) throw missing(path);
  const auto corrupt = [&](const std::string& why) {
    return UsageError(cat("corrupt checkpoint ", path, ": ", why, "; ", what_to_do));
  };
  if (!bytes.starts_with(kMagic)) throw UsageError(cat(path, " is not a tdcone checkpoint"));
  const std::size_t line_end = bytes.find('\n', kMagic.size());
  const std::string_view version(bytes.data() + kMagic.size(), std::min(line_end, bytes.size()) - kMagic.size());
  if (line_end == std::string::npos || version.empty() || version.size() > kLongestVersion ||
      version.find_first_not_of("0123456789") != std::string_view::npos)
    throw corrupt("damaged header");
  if (version != kVersion)
    throw UsageError(cat("checkpoint ", path, " has format ", version, " of another tdcone version (this one reads ",
                         kVersion, "); ", what_to_do));
  const std::size_t checked_at = line_end + 1 + kChecksumBytes, frame_at = checked_at + sizeof(Fingerprint);
  if (bytes.size() < frame_at) throw corrupt("truncated");
  XXH128_canonical_t stored;
  std::memcpy(&stored, bytes.data() + line_end + 1, kChecksumBytes);
  if (!XXH128_isEqual(XXH128_hashFromCanonical(&stored), XXH3_128bits(bytes.data() + checked_at, bytes.size() - checked_at)))
    throw corrupt("checksum mismatch (damaged or truncated)");
  // Past the checksum, the bytes are those tdcone wrote.
  std::memcpy(&fingerprint, bytes.data() + checked_at, sizeof fingerprint);
  return frame_at;
}

}  // namespace

FileIdentity write_checkpoint(const std::string& path, const Fingerprint& fingerprint, const SelectionState& state) {
  std::ostringstream archive_bytes;
  {
    boost::archive::binary_oarchive archive(archive_bytes, kArchiveFlags);
    archive << state;
  }
  const std::string raw = archive_bytes.str();
  std::string file = cat(kMagic, kVersion, '\n');
  const std::size_t checked_at = file.size() + kChecksumBytes;
  file.resize(checked_at + sizeof fingerprint);
  file += io::zstd_frame(raw, 3, "checkpoint");
  std::memcpy(file.data() + checked_at, &fingerprint, sizeof fingerprint);
  XXH128_canonical_t checksum;
  XXH128_canonicalFromHash(&checksum, XXH3_128bits(file.data() + checked_at, file.size() - checked_at));
  std::memcpy(file.data() + checked_at - kChecksumBytes, &checksum, kChecksumBytes);

  std::error_code error;
  if (std::filesystem::exists(path, error) && !is_checkpoint(path))
    throw IoError(cat("not writing a checkpoint over ", path, ": it exists and is not a tdcone checkpoint"));
  return replace_file(path, file);
}

SelectionState read_checkpoint(const std::string& path, const CheckpointKey& key) {
  std::string bytes;
  Fingerprint fingerprint;
  const std::string start_again = cat("start again without ", Option::resume);
  const std::size_t frame_at = verified_header(path, bytes, fingerprint, start_again);
  const auto corrupt = [&](const std::string& why) {
    return UsageError(cat("corrupt checkpoint ", path, ": ", why, "; ", start_again));
  };
  if (fingerprint != key.fingerprint)
    throw UsageError(cat("checkpoint ", path, " belongs to another selection: its ",
                         differences(fingerprint, key.fingerprint),
                         " differ from this run's; run with the same inputs and options, or with ", Option::force,
                         " instead of ", Option::resume, " to start over and replace it"));
  const char* frame = bytes.data() + frame_at;
  const std::size_t frame_size = bytes.size() - frame_at;
  const unsigned long long raw_size = ZSTD_getFrameContentSize(frame, frame_size);
  if (raw_size == ZSTD_CONTENTSIZE_ERROR || raw_size == ZSTD_CONTENTSIZE_UNKNOWN) throw corrupt("bad zstd frame");
  // A state holds a count per word and at most one row (52 bytes archived) per AVAIL line.
  if (raw_size > 4096 + 8 * key.lexicon_size + 64 * key.available_lines)
    throw corrupt("larger than any state of these inputs");
  std::string raw(raw_size, '\0');
  const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), frame, frame_size);
  if (ZSTD_isError(got) || got != raw_size) throw corrupt("damaged data");
  SelectionState state;
  try {
    std::istringstream archive_bytes(raw);
    boost::archive::binary_iarchive archive(archive_bytes, kArchiveFlags);
    archive >> state;
  } catch (const std::exception& e) {
    throw corrupt(e.what());
  }
  if (const std::string problem = invalid_state(state, key); !problem.empty()) throw corrupt(problem);
  return state;
}

void check_checkpoint_path(const std::string& path, bool resume) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_regular_file(status))
      throw UsageError(cat(Option::checkpoint, " ", path, " is a directory or special file, not a checkpoint"));
    if (!is_checkpoint(path))
      throw UsageError(cat(Option::checkpoint, " ", path, " is not a tdcone checkpoint; it is left as it is: give another path"));
  } else if (resume) {
    throw missing(path);
  }
  const std::filesystem::path given = std::filesystem::path(path).parent_path();
  const std::filesystem::path directory = given.empty() ? "." : given;
  const std::filesystem::file_status folder = std::filesystem::status(directory, error);
  if (!std::filesystem::exists(folder))
    throw UsageError(cat(Option::checkpoint, " ", path, ": no directory ", directory.string()));
  if (!std::filesystem::is_directory(folder))
    throw UsageError(cat(Option::checkpoint, " ", path, ": ", directory.string(), " is not a directory"));
  // A checkpoint is written at a signal, when it is too late to find out that
  // it cannot be: make and remove a file there now, as a checkpoint is made.
  std::string probe = path + ".partial-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    throw UsageError(cat(Option::checkpoint, " ", path, ": cannot create a file in ", directory.string(), " (",
                         std::strerror(errno), "); give a ", Option::checkpoint, " in a folder this job can write"));
  ::close(fd);
  ::unlink(probe.c_str());
}

void refuse_found_checkpoint(const std::string& path, const Fingerprint& fingerprint) {
  const std::string choices = cat("give another ", Option::checkpoint, ", or ", Option::force, " to start over and replace it");
  std::string bytes;
  Fingerprint found;
  verified_header(path, bytes, found, cat("it is left as it is: ", choices));
  if (found == fingerprint)
    throw UsageError(cat(Option::checkpoint, " ", path, " holds a checkpoint of this same selection (the same inputs "
                         "and options): run with ", Option::resume, " to continue it, or with ", Option::force,
                         " to start over and replace it"));
  throw UsageError(cat(Option::checkpoint, " ", path, " holds the checkpoint of another selection (its ",
                       differences(found, fingerprint), " differ from this run's); it is left as it is: ", choices));
}

FileIdentity identity_of(const std::string& path) {
  struct stat file;
  if (::lstat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) return {};
  return {static_cast<std::uint64_t>(file.st_dev), static_cast<std::uint64_t>(file.st_ino)};
}

void remove_checkpoint(const std::string& path) {
  if (!is_checkpoint(path)) return;
  std::error_code error;
  if (!std::filesystem::remove(path, error))
    std::fprintf(stderr, "tdcone: warning: cannot remove checkpoint %s: %s\n", path.c_str(), error.message().c_str());
}

}  // namespace tdcone::select
