// tdcone synth: the built-in deterministic corpus for demos, tests and benchmarks.
#include "tdcone/cli/synth_command.hpp"

#include <cstdio>
#include <limits>

#include "tdcone/cli/common_options.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/hdf5/h5file.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/results/standard_output.hpp"
#include "tdcone/synth/synth.hpp"

namespace tdcone::cli {

namespace {

// A trillion lines is some 100 TB of text, past any real corpus.
constexpr std::uint64_t kMaxSynthPairs = 1'000'000'000'000;
// The twitter profile finds its first line by walking the run lengths from
// line 0 (each drawn in turn from the last), so the start costs time in
// proportion to --first-pair; a billion lines is a few seconds of that, and
// far beyond any corpus a held-out reference has to follow.
constexpr std::uint64_t kMaxFirstPair = 1'000'000'000;

}  // namespace

void add_synth_options(OptionSet& o, SynthOptionsCli& s) {
  o.add("profile", s.profile,
        "Shape of the corpus. twitter: news headlines (src), each with a run of ~13 consecutive candidate tweets "
        "(tgt; mostly loosely related, some paraphrases, a few copies; #hashtags, @handles, numbers, links) and a "
        "classifier-like score that rises with closeness; stories of a few runs share made-up names. Calibrated "
        "on the Twitter URL corpus (10k pairs: TD-CONE ~0.48, ~60 alignment cells a pair; 2.8M pairs: ~0.39, "
        "~200k word types a side; docs/synth-calibration.md). paraphrase: every line a fresh Zipfian sentence "
        "and a close paraphrase of it (low TD-CONE; the generator before profiles, same bytes)",
        one_of({"twitter", "paraphrase"}));
  o.add("pairs", s.pairs, "Number of lines", whole_number(1, kMaxSynthPairs));
  o.add("first-pair", s.first_pair,
        "Start at this line of the seed's corpus: a held-out reference is --first-pair N with N beyond the corpus. "
        "At most 1,000,000,000: the twitter profile walks its runs of lines from line 0 to get there, a few seconds "
        "for the largest value",
        whole_number(0, kMaxFirstPair));
  o.add("seed", s.seed, "Random seed: same seed, same corpus (and vocabulary)", whole_number(0, kAnyCount));
  o.add("vocabulary", s.vocabulary, "Word types of the Zipfian vocabulary (twitter: besides made-up names, handles, numbers and links)",
        whole_number(100, 10'000'000));
  o.add("junk-fraction", s.junk_fraction, "Fraction of junk lines (empty sides, over-long, malformed)", real_number(0, 1));
  o.add_switch("labels", s.labels,
               "Two more columns of style labels (columns 1-4 unchanged): 5 formality, a number in [0, 1] with 3 "
               "decimals, and 6 arousal, 'aroused' or 'calm'; tied to each headline (paraphrase: each source's rarest "
               "word) and to how close the pair is, skewed like a real style corpus: with formal = formality >= 0.5, "
               "formal|aroused ~64%, formal|calm ~21%, informal|aroused ~9%, informal|calm ~6%. About half of "
               "--junk-fraction of the lines have a bad label: formality 'n/a' or no column 6");
  o.add("output", s.output, "File to write ('-' = standard output; a name ending in .zst writes multi-frame zstd)")->required();
  o.add_action_flag("force", s.force, "Overwrite an existing output file (never one of the inputs)");
}


int run_synth(const boost::mpi::communicator& comm, const SynthOptionsCli& options) {
  int status = 0;
  mpi::collective_step(comm, [&] {
    if (comm.rank() != 0) return;  // one writer; the corpus does not depend on the rank count
    if (options.output != "-") hdf5::check_output_target(options.output, options.force);
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
      if (options.output != "-" || !results::standard_output_reader_gone()) throw;
      status = results::kExitReaderGone;
      return;
    }
    if (options.output != "-")
      std::fprintf(stderr, "tdcone synth: wrote %llu pairs to %s\n", (unsigned long long)options.pairs,
                   options.output.c_str());
  });
  return status;
}

}  // namespace tdcone::cli
