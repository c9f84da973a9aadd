#!/usr/bin/env bash
# Benchmark of `tdcone sweep` against a plain `tdcone score` of the same corpus
# (issue: a 6-threshold sweep with a reference takes at most 1.5x the score).
# Prints one JSON object. Usage: bench/sweep.sh [PAIRS] [RANKS]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-2800000}
ranks=${2:-2}

corpus="$work/corpus.tsv"
reference="$work/reference.tsv"
"$tdcone" synth --pairs "$pairs" --seed 1 --output "$corpus" --force 2>/dev/null
# A held-out 1k validation set: later lines of the same synthetic corpus.
"$tdcone" synth --pairs 1000 --first-pair "$pairs" --seed 1 --junk-fraction 0 --output "$reference" --force 2>/dev/null
thresholds=0.4,0.5,0.6,0.7,0.75,0.8

read -r score_s _ < <(timed_mpi "$ranks" score score --input "$corpus" --score-col 3)
read -r sweep_s _ < <(timed_mpi "$ranks" sweep sweep --input "$corpus" --score-col 3 --reference "$reference" \
  --thresholds "$thresholds")
read -r sample_s _ < <(timed_mpi "$ranks" sample sweep --input "$corpus" --score-col 3 --reference "$reference" \
  --thresholds "$thresholds" --sample 110000 --seed 1)

/usr/bin/python3 - "$work" <<PY
import json, sys, h5py
work = sys.argv[1]
def table(name):
    with h5py.File(f"{work}/{name}.h5", "r") as f:
        s = f["sweep"]
        return [{k: (float(s[k][i]) if s[k].dtype.kind == "f" else int(s[k][i])) for k in s} for i in range(len(s["threshold"]))]
score_s, sweep_s, sample_s = float("$score_s"), float("$sweep_s"), float("$sample_s")
print(json.dumps({
  "benchmark": "sweep", "pairs": $pairs, "ranks": $ranks, "thresholds": "$thresholds",
  "score_seconds": round(score_s, 2),
  "sweep_with_reference_seconds": round(sweep_s, 2), "ratio_to_score": round(sweep_s / score_s, 3),
  "sampled_sweep_seconds": round(sample_s, 2), "sampled_ratio_to_score": round(sample_s / score_s, 3),
  "sweep": table("sweep"), "sampled_sweep": table("sample"),
}, indent=2))
PY
