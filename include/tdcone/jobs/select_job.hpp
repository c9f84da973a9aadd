#pragma once
// tdcone select: distributed batch-mode cynical data selection (docs/spec.md §6, §8
// /selection), with checkpoints on SIGTERM/SIGUSR1 and on a timer, and resume.
#include <boost/mpi/communicator.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tdcone/config/job_config.hpp"
#include "tdcone/results/line_accounting.hpp"
#include "tdcone/exporting/where_filter.hpp"
#include "tdcone/select/corpora.hpp"

namespace tdcone::jobs {

/// The status of a selection stopped by a signal after its checkpoint:
/// EX_TEMPFAIL, try again (with --resume).
inline constexpr int kExitInterrupted = 75;

/// Which text of an input's line is the line selection reads.
enum class LineSide {
  automatic,  // line when the input's first non-empty line has one column, else --side
  src, tgt, both,
  line,  // the whole line
};

struct SelectConfig {
  std::vector<std::string> representative, available, unadapted, seed_corpus;
  select::Side side = select::Side::src;  // AVAIL's (and, by default, the others' when they hold pairs)
  LineSide representative_side = LineSide::automatic, unadapted_side = LineSide::automatic,
           seed_side = LineSide::automatic;
  config::CorpusConfig corpus;  // format and tokenization (its inputs are not used)
  std::uint64_t mincount = 3;
  bool keep_boring = true;
  bool batch = true;
  std::uint32_t length_cap = 100;
  bool skip_seed_lines = true;     // AVAIL lines whose text is a SEED line are not selectable (flags 8)
  bool stop = false;               // only the lines up to stop_rank selected (the rest flagged 4)
  std::string checkpoint;          // default: the output path + ".ckpt"
  bool resume = false;
  double checkpoint_every = 0;     // minutes; 0 = only on SIGTERM/SIGUSR1
  // AVAIL lines that fail it are flagged left_out (128): not selectable, and
  // counted nowhere, as if they were not in AVAIL (nor in UNAD by default).
  exporting::WhereFilter where;
  exporting::RunConfigReader read_run_config;  // reads --where-result's recorded configuration
  config::OutputConfig output;
};

/// What a selection found, for its summary (`ranked` and `h_stop`: on rank 0).
struct SelectRun {
  bool interrupted = false;  // stopped by a signal: checkpoint written, no result
  results::LineCounts counts;         // of AVAIL
  std::size_t ranked = 0;
  std::uint64_t in_seed = 0;
  std::uint64_t left_out = 0;  // AVAIL lines --where left out
  bool seed_given = false;   // --seed-corpus
  std::size_t lexicon = 0;  // words
  std::uint64_t repr_tokens = 0, stop_rank = 0;
  double h_initial = 0, h_stop = 0;  // cross-entropy at the start and at stop_rank
};

/// From now on SIGTERM and SIGUSR1 ask a selection to checkpoint and exit 75
/// (at its next iteration boundary) instead of killing the process.
void catch_stop_signals();

/// Reads the corpora, ranks every AVAIL line (resuming from the checkpoint
/// with `config.resume`, writing one on a signal or every
/// `config.checkpoint_every` minutes) and writes /selection (recording
/// `config_toml`). Collective.
SelectRun run_select_job(const boost::mpi::communicator& comm, const SelectConfig& config, const std::string& config_toml);

}  // namespace tdcone::jobs
