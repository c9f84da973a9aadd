#!/usr/bin/env bash
# Benchmark of `tdcone score` on a Twitter-shaped corpus (issue: the whole
# 2-rank job on 2.8M pairs ≤ 10 s, ≤ 1.5 GB per rank, 1→2 speedup ≥ 1.8,
# 4 ranks ≤ 0.65 × the 2-rank memory per rank). Prints one JSON object: the
# corpus (profile, pairs, bytes, nnz), then for 1, 2 and 4 ranks the wall
# time, the phase times the run stored, peak RSS per rank and bytes per
# non-zero of M. With BASELINE=/path/to/an/older/tdcone, the same 2-rank run
# of that binary too. Usage: bench/score.sh [PAIRS] [PROFILE] [RANKS...]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-2800000}
profile=${2:-twitter}
shift $(( $# > 2 ? 2 : $# ))
ranks=("${@:-1 2 4}")
read -r -a ranks <<<"${ranks[*]}"

corpus="$work/corpus.tsv"
t0=$(now)
"$tdcone" synth --profile "$profile" --pairs "$pairs" --seed 1 --output "$corpus" --force 2>/dev/null
synth_s=$(echo "$(now) - $t0" | bc)
score=(score --input "$corpus" --score-col 3 --id-col 4 --progress-every 0)
runs=()
for n in "${ranks[@]}"; do
  read -r s m < <(timed_mpi "$n" "out-$n" "${score[@]}")
  runs+=("$n:$s:$m")
done
baseline=""
if [ -n "${BASELINE:-}" ]; then
  read -r s m < <(tdcone=$BASELINE timed_mpi 2 baseline score --input "$corpus" --score-col 3 --id-col 4)
  baseline="$s:$m"
fi

/usr/bin/python3 - "$work" "$pairs" "$profile" "$(stat -c %s "$corpus")" "$synth_s" "$baseline" "${runs[@]}" <<'PY'
import json, sys, h5py
work, pairs, profile, corpus_bytes, synth_s, baseline = sys.argv[1:7]
result = {"benchmark": "score", "profile": profile, "pairs": int(pairs), "corpus_bytes": int(corpus_bytes),
          "synth_seconds": round(float(synth_s), 2)}
runs = {}
for run in sys.argv[7:]:
    n, seconds, rss = run.split(":")
    with h5py.File(f"{work}/out-{n}.h5", "r") as f:
        corpus = f["corpus"].attrs
        result.update(nnz=int(corpus["nnz"]), vx=int(corpus["vx"]), vy=int(corpus["vy"]), tdcone=float(corpus["tdcone"]))
        phases = {k[len("seconds_"):]: round(float(v), 2) for k, v in f.attrs.items() if k.startswith("seconds_")}
    rss_mb = [int(x) for x in rss.split(",")]
    runs[n] = {"seconds": round(float(seconds), 2), "phases": phases, "peak_rss_mb": rss_mb,
               "bytes_per_nnz": round(sum(rss_mb) * 2**20 / result["nnz"], 1)}
result["ranks"] = runs
if "1" in runs and "2" in runs:
    result["speedup_1_to_2"] = round(runs["1"]["seconds"] / runs["2"]["seconds"], 3)
if "2" in runs and "4" in runs:
    result["rss_4_over_2"] = round(max(runs["4"]["peak_rss_mb"]) / max(runs["2"]["peak_rss_mb"]), 3)
if baseline:
    seconds, rss = baseline.split(":")
    result["baseline_2_ranks"] = {"seconds": round(float(seconds), 2), "peak_rss_mb": [int(x) for x in rss.split(",")]}
print(json.dumps(result, indent=2))
PY
