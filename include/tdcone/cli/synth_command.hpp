#pragma once
// tdcone synth: its options and its run.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <string>

#include "tdcone/cli/options.hpp"

namespace tdcone::cli {

struct SynthOptionsCli {
  std::string profile = "twitter";  // synth::Profile by name
  std::uint64_t pairs = 100000;
  std::uint64_t first_pair = 0;
  std::uint64_t seed = 1;
  std::uint32_t vocabulary = 50000;
  double junk_fraction = 0.002;
  bool labels = false;
  std::string output;
  bool force = false;
};

void add_synth_options(OptionSet& options, SynthOptionsCli& synth);

/// Writes the corpus (rank 0); returns the exit status.
int run_synth(const boost::mpi::communicator& comm, const SynthOptionsCli& options);

}  // namespace tdcone::cli
