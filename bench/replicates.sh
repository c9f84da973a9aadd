#!/usr/bin/env bash
# The cost of replicates (docs/spec.md §5 replicates): a sweep with
# --sample N --replicates R against a plain score of the same corpus and
# reference, in the same run, alternated (plain, sweep, sweep, plain, ...),
# the best of REPEAT runs each. Replicates 1..R-1 are scored in their own
# passes (the seconds_replicates phase); their cost a sampled pair (the
# sum of every threshold's n_sampled over those replicates, from
# /replicates) is set against the plain score's seconds a pair.
#
# Usage: [REPEAT=2] [TDCONE=build/tdcone] bench/replicates.sh PAIRS PROFILE N R RANKS [THRESHOLDS]
#   bench/replicates.sh 2800000 twitter 100000 20 1 0,0.1,0.2,0.3,0.4,0.5,0.6
# The reference is 20,000 pairs of the same profile with another seed.
# Prints one JSON object.
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=$1 profile=$2 sample=$3 replicates=$4 ranks=$5 thresholds=${6:-0,0.1,0.2,0.3,0.4,0.5,0.6}
repeat=${REPEAT:-2}
corpus=$(synth_corpus "$profile" "$pairs")
reference=$work/reference-$profile.tsv
[ -s "$reference" ] || "$tdcone" synth --profile "$profile" --pairs 20000 --seed 2 --output "$reference" --force \
  >/dev/null 2>&1
common=(--input "$corpus" --score-col 3 --reference "$reference" --progress-every 0)
plain=(score "${common[@]}")
swept=(sweep "${common[@]}" --thresholds "$thresholds" --sample "$sample" --replicates "$replicates")
runs=()
for r in $(seq "$repeat"); do
  order=(plain sweep)
  (( r % 2 == 0 )) && order=(sweep plain)
  for kind in "${order[@]}"; do
    if [ "$kind" = plain ]; then args=("${plain[@]}"); else args=("${swept[@]}"); fi
    read -r s m < <(timed_mpi "$ranks" "$kind-$r" "${args[@]}")
    runs+=("$kind:$r:$s:$m")
  done
done
/usr/bin/python3 - "$work" "$pairs" "$profile" "$sample" "$replicates" "$ranks" "$thresholds" "${runs[@]}" <<'PY'
import json, sys
import h5py
import numpy as np
work, pairs, profile, sample, replicates, ranks, thresholds = sys.argv[1:8]
best = {}
for run in sys.argv[8:]:
    kind, r, seconds, rss = run.split(":")
    if kind not in best or float(seconds) < best[kind]["seconds"]:
        best[kind] = {"seconds": float(seconds), "rss_mb": [int(x) for x in rss.split(",")], "file": f"{work}/{kind}-{r}.h5"}
with h5py.File(best["plain"]["file"], "r") as f:
    scored = int(f.attrs["n_scored"])
    plain_phases = {k[len("seconds_"):]: float(v) for k, v in f.attrs.items() if k.startswith("seconds_")}
with h5py.File(best["sweep"]["file"], "r") as f:
    phases = {k[len("seconds_"):]: float(v) for k, v in f.attrs.items() if k.startswith("seconds_")}
    rep = f["replicates"]
    later = rep["replicate"][()] >= 1
    sampled_later = int(rep["n_sampled"][()][later].sum())
    n_sampled = [int(v) for v in f["sweep"]["n_sampled"][()]]
    n_pairs = [int(v) for v in f["sweep"]["n_pairs"][()]]
    budget = int(f.attrs["memory_budget_bytes"])
plain_ns = best["plain"]["seconds"] * 1e9 / scored
replicate_ns = phases["replicates"] * 1e9 / sampled_later
result = {
    "benchmark": "replicates", "profile": profile, "pairs": int(pairs), "scored": scored, "ranks": int(ranks),
    "thresholds": thresholds, "sample": int(sample), "replicates": int(replicates),
    "subset_pairs": n_pairs, "n_sampled": n_sampled,
    "plain": {"seconds": round(best["plain"]["seconds"], 2), "ns_per_pair": round(plain_ns, 1),
              "peak_rss_mb": best["plain"]["rss_mb"], "phases": {k: round(v, 2) for k, v in plain_phases.items()}},
    "sweep": {"seconds": round(best["sweep"]["seconds"], 2), "phases": {k: round(v, 2) for k, v in phases.items()},
              "peak_rss_mb": best["sweep"]["rss_mb"], "memory_budget_mb": budget >> 20,
              "sampled_pairs_in_replicate_passes": sampled_later,
              "ns_per_sampled_pair": round(replicate_ns, 1)},
    "ratio_per_pair": round(replicate_ns / plain_ns, 3),
}
print(json.dumps(result, indent=1))
PY
