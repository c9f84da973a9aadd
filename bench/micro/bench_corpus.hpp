#pragma once
// How the one-stage benchmarks read a bench corpus (src, tgt, score, id): as
// bench/score.sh runs `tdcone score --score-col 3 --id-col 4`, so that they
// skip the lines it skips (a score that is no number, say).
#include "tdcone/text/tokenized_share.hpp"

namespace bench {

inline tdcone::text::ReadOptions corpus_read_options() {
  tdcone::text::ReadOptions options;
  options.fields.score_col = 3;
  options.fields.id_col = 4;
  return options;
}

}  // namespace bench
