#!/usr/bin/env bash
# Benchmark of `tdcone score` (issue: the whole 2-rank job on 2.8M pairs).
# Prints one JSON object: synth time, then score wall time and peak RSS per
# rank for 1 and 2 ranks, and the speedup. Usage: bench/score.sh [PAIRS]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-2800000}

corpus="$work/corpus.tsv"
t0=$(now)
"$tdcone" synth --pairs "$pairs" --seed 1 --output "$corpus" --force 2>/dev/null
synth_s=$(echo "$(now) - $t0" | bc)
bytes=$(stat -c %s "$corpus")

score=(score --input "$corpus" --score-col 3 --id-col 4)
read -r s1 m1 < <(timed_mpi 1 out-1 "${score[@]}")
read -r s2 m2 < <(timed_mpi 2 out-2 "${score[@]}")
tdcone_value=$(/usr/bin/python3 -c "import h5py; print(h5py.File('$work/out-2.h5','r')['corpus'].attrs['tdcone'])")
/usr/bin/python3 - <<PY
import json
s1, s2 = float("$s1"), float("$s2")
print(json.dumps({
  "benchmark": "score", "pairs": $pairs, "corpus_bytes": $bytes, "synth_seconds": round(float("$synth_s"), 2),
  "ranks_1": {"seconds": round(s1, 2), "peak_rss_mb": [$m1]},
  "ranks_2": {"seconds": round(s2, 2), "peak_rss_mb": [$m2]},
  "speedup_1_to_2": round(s1 / s2, 3),
  "corpus_tdcone": $tdcone_value,
}, indent=2))
PY
