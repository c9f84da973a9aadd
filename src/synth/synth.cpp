#include "tdcone/synth/synth.hpp"

#include <memory>

#include "tdcone/core/error.hpp"
#include "tdcone/io/zstd_writer.hpp"
#include "tdcone/synth/profiles.hpp"

namespace tdcone::synth {

Profile profile_from_name(const std::string& name) {
  if (name == "twitter") return Profile::twitter;
  if (name == "paraphrase") return Profile::paraphrase;
  throw UsageError(cat("synth: unknown profile '", name, "' (twitter or paraphrase)"));
}

void write_corpus(const SynthOptions& options, const std::string& path) {
  if (options.vocabulary == 0) throw UsageError("synth: the vocabulary needs at least one word");
  const std::unique_ptr<LineSource> lines =
      options.profile == Profile::paraphrase ? paraphrase_profile(options) : twitter_profile(options);
  // Frames of io::kZstdFrameBytes: readers split the file at frame boundaries.
  io::ZstdWriter output(path, {.compress = options.zstd, .level = options.zstd_level});
  std::string buffer;
  buffer.reserve(2 * io::kZstdFrameBytes);
  for (std::uint64_t index = options.first_pair; index < options.first_pair + options.pairs; ++index) {
    lines->append_line(index, buffer);
    if (buffer.size() >= io::kZstdFrameBytes) {
      output.write(buffer);
      buffer.clear();
    }
  }
  output.write(buffer);
  output.finish();
}

}  // namespace tdcone::synth
