#!/usr/bin/env bash
# Benchmark of `tdcone sweep` against a plain `tdcone score` of the same
# Twitter-shaped corpus (issue: a 4-threshold sweep ≤ 1.3 × the score time),
# plus the paper's 6 thresholds with a 1k reference, and with 110k samples.
# Prints one JSON object. Usage: bench/sweep.sh [PAIRS] [RANKS] [PROFILE]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-2800000}
ranks=${2:-2}
profile=${3:-twitter}

corpus="$work/corpus.tsv"
reference="$work/reference.tsv"
"$tdcone" synth --profile "$profile" --pairs "$pairs" --seed 1 --output "$corpus" --force 2>/dev/null
# A held-out 1k validation set: later lines of the same synthetic corpus.
"$tdcone" synth --profile "$profile" --pairs 1000 --first-pair "$pairs" --seed 1 --junk-fraction 0 \
  --output "$reference" --force 2>/dev/null
four=0.4,0.5,0.6,0.7
six=0.4,0.5,0.6,0.7,0.75,0.8
common=(--input "$corpus" --score-col 3 --progress-every 0)

read -r score_s score_m < <(timed_mpi "$ranks" score score "${common[@]}")
read -r four_s four_m < <(timed_mpi "$ranks" four sweep "${common[@]}" --thresholds "$four")
read -r six_s _ < <(timed_mpi "$ranks" six sweep "${common[@]}" --reference "$reference" --thresholds "$six")
read -r sample_s _ < <(timed_mpi "$ranks" sample sweep "${common[@]}" --reference "$reference" --thresholds "$six" \
  --sample 110000 --seed 1)

/usr/bin/python3 - "$work" <<PY
import json, sys, h5py
work = sys.argv[1]
def table(name):
    with h5py.File(f"{work}/{name}.h5", "r") as f:
        s = f["sweep"]
        return [{k: (float(s[k][i]) if s[k].dtype.kind == "f" else int(s[k][i])) for k in s} for i in range(len(s["threshold"]))]
def phases(name):
    with h5py.File(f"{work}/{name}.h5", "r") as f:
        return {k[len("seconds_"):]: round(float(v), 2) for k, v in f.attrs.items() if k.startswith("seconds_")}
with h5py.File(f"{work}/score.h5", "r") as f:
    nnz = int(f["corpus"].attrs["nnz"])
score_s, four_s, six_s, sample_s = float("$score_s"), float("$four_s"), float("$six_s"), float("$sample_s")
print(json.dumps({
  "benchmark": "sweep", "profile": "$profile", "pairs": $pairs, "ranks": $ranks, "nnz": nnz,
  "score_seconds": round(score_s, 2), "score_phases": phases("score"), "score_peak_rss_mb": [$score_m],
  "sweep_4_thresholds_seconds": round(four_s, 2), "sweep_4_phases": phases("four"), "sweep_4_peak_rss_mb": [$four_m],
  "ratio_4_to_score": round(four_s / score_s, 3),
  "sweep_6_with_reference_seconds": round(six_s, 2), "ratio_6_with_reference_to_score": round(six_s / score_s, 3),
  "sampled_sweep_seconds": round(sample_s, 2), "sampled_ratio_to_score": round(sample_s / score_s, 3),
  "sweep_4": table("four"), "sweep_6_with_reference": table("six"), "sampled_sweep": table("sample"),
}, indent=2))
PY
