#include "tdcone/select/checkpoint.hpp"

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/vector.hpp>
#include <zstd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tdcone/error.hpp"

namespace tdcone::select {

namespace {
constexpr char kMagic[] = "tdcone-checkpoint-1\n";  // then the zstd frame of the archive
}

void write_checkpoint(const std::string& path, const SelectionState& state) {
  std::ostringstream archive_bytes;
  {
    boost::archive::binary_oarchive archive(archive_bytes);
    archive << state;
  }
  const std::string raw = archive_bytes.str();
  std::string packed(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t size = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 3);
  if (ZSTD_isError(size)) throw IoError(cat("cannot compress checkpoint: ", ZSTD_getErrorName(size)));
  packed.resize(size);

  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << kMagic << packed;
    if (!out.flush()) throw IoError(cat("cannot write checkpoint ", partial));
  }
  std::error_code error;
  std::filesystem::rename(partial, path, error);
  if (error) throw IoError(cat("cannot rename checkpoint to ", path, ": ", error.message()));
}

SelectionState read_checkpoint(const std::string& path, std::uint64_t fingerprint) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(cat("cannot read checkpoint ", path, " (--resume needs the checkpoint of an earlier run)"));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string magic(kMagic);
  const auto corrupt = [&](const std::string& why) {
    return UsageError(cat("corrupt checkpoint ", path, ": ", why, "; delete it and start again without --resume"));
  };
  if (bytes.compare(0, magic.size(), magic) != 0) throw corrupt("not a tdcone checkpoint");
  const char* frame = bytes.data() + magic.size();
  const std::size_t frame_size = bytes.size() - magic.size();
  const unsigned long long raw_size = ZSTD_getFrameContentSize(frame, frame_size);
  if (raw_size == ZSTD_CONTENTSIZE_ERROR || raw_size == ZSTD_CONTENTSIZE_UNKNOWN) throw corrupt("bad zstd frame");
  std::string raw(raw_size, '\0');
  const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), frame, frame_size);
  if (ZSTD_isError(got) || got != raw_size) throw corrupt("truncated or damaged data");
  SelectionState state;
  try {
    std::istringstream archive_bytes(raw);
    boost::archive::binary_iarchive archive(archive_bytes);
    archive >> state;
  } catch (const std::exception& e) {
    throw corrupt(e.what());
  }
  if (state.fingerprint != fingerprint)
    throw UsageError(cat("checkpoint ", path, " belongs to another selection (other inputs or options); "
                         "run with the same inputs and options, or without --resume"));
  return state;
}

}  // namespace tdcone::select
