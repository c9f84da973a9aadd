// tdcone synth: the built-in deterministic corpus for demos, tests and benchmarks.
#include <cstdio>

#include "tdcone/cli/commands.hpp"
#include "tdcone/cli/standard_output.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/core/guard.hpp"
#include "tdcone/synth/synth.hpp"

namespace tdcone::cli {

int run_synth(const boost::mpi::communicator& comm, const SynthOptionsCli& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;  // one writer; the corpus does not depend on the rank count
    if (options.output != "-") h5::check_output_target(options.output, options.force);
    synth::SynthOptions s;
    s.profile = synth::profile_from_name(options.profile);
    s.pairs = options.pairs;
    s.first_pair = options.first_pair;
    s.seed = options.seed;
    s.vocabulary = options.vocabulary;
    s.junk_fraction = options.junk_fraction;
    s.labels = options.labels;
    s.zstd = options.output.size() > 4 && options.output.ends_with(".zst");
    try {
      synth::write_corpus(s, options.output);
    } catch (const IoError&) {
      if (options.output != "-" || !standard_output_reader_gone()) throw;
      status = kExitReaderGone;
      return;
    }
    if (options.output != "-")
      std::fprintf(stderr, "tdcone synth: wrote %llu pairs to %s\n", (unsigned long long)options.pairs,
                   options.output.c_str());
  });
  return status;
}

}  // namespace tdcone::cli
