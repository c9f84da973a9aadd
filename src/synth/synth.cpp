#include "tdcone/synth/synth.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "tdcone/core/error.hpp"
#include "tdcone/io/output_lock.hpp"
#include "tdcone/io/zstd_writer.hpp"
#include "tdcone/synth/profiles.hpp"

namespace tdcone::synth {

Profile profile_from_name(const std::string& name) {
  if (name == "twitter") return Profile::twitter;
  if (name == "paraphrase") return Profile::paraphrase;
  throw UsageError(cat("synth: unknown profile '", name, "' (twitter or paraphrase)"));
}

namespace {

void write_lines(const SynthOptions& options, LineSource& lines, io::ZstdWriter& output) {
  std::string buffer;
  buffer.reserve(2 * io::kZstdFrameBytes);
  for (std::uint64_t index = options.first_pair; index < options.first_pair + options.pairs; ++index) {
    lines.append_line(index, buffer);
    if (buffer.size() >= io::kZstdFrameBytes) {
      output.write(buffer);
      buffer.clear();
    }
  }
  output.write(buffer);
  output.finish();
}

}  // namespace

void write_corpus(const SynthOptions& options, const std::string& path) {
  if (options.vocabulary == 0) throw UsageError("synth: the vocabulary needs at least one word");
  const std::unique_ptr<LineSource> lines =
      options.profile == Profile::paraphrase ? paraphrase_profile(options) : twitter_profile(options);
  // Frames of io::kZstdFrameBytes: readers split the file at frame boundaries.
  const io::ZstdWriterOptions format{.compress = options.zstd, .level = options.zstd_level};
  if (path == "-") {
    io::ZstdWriter output(path, format);
    return write_lines(options, *lines, output);
  }
  const io::OutputLock lock(path);  // one writer of `path` at a time
  // Written through the descriptor of a file created anew (O_EXCL), never reopened by name.
  const io::PartialFile partial = io::create_partial_file(path);
  io::PartialOnSignal on_signal(partial.path, 0);
  try {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(::fdopen(partial.fd, "wb"), &std::fclose);
    if (!file) {
      ::close(partial.fd);
      throw IoError(cat("cannot write ", partial.path, ": ", std::strerror(errno)));
    }
    {
      io::ZstdWriter output(file.get(), partial.path, format);
      write_lines(options, *lines, output);
    }
    if (std::fclose(file.release()) != 0) throw IoError(cat("cannot write ", partial.path, ": ", std::strerror(errno)));
    // The command line has checked --force (hdf5::check_output_target); a link is still refused.
    io::commit_partial(partial.path, path, /*replace=*/true);
  } catch (...) {
    ::unlink(partial.path.c_str());
    throw;
  }
  on_signal.kept();
}

}  // namespace tdcone::synth
