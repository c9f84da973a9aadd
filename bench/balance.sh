#!/usr/bin/env bash
# Benchmark of label-aware curation on a labelled Twitter-shaped corpus (synth
# --labels; 2.8M pairs, the size of the real Twitter URL corpus), on 2 ranks:
# plain `score`, `balance --mode joint --rank-by tdcone` (without and with
# --by-label), `balance --mode marginal --rank-by random` and `score --by-label`. Prints one JSON object:
# the corpus, per run the wall time and peak RSS per rank, the label
# combinations of the corpus (pairs and TD-CONE of each, before/after the joint
# balance), and balance_over_score = joint balance seconds / score seconds
# (issue: <= 1.2). The corpus is kept and reused under BENCH_DIR.
# Usage: [PAIRS=2800000] [BENCH_DIR=dir] bench/balance.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${PAIRS:-2800000}

corpus="$work/twitter-labels-$pairs.tsv"
if [ ! -s "$corpus" ]; then
  "$tdcone" synth --labels --pairs "$pairs" --seed 1 --output "$corpus.partial" --force 2>/dev/null
  mv "$corpus.partial" "$corpus"  # a corpus cut short by an interrupted run is never reused
fi
input=(--input "$corpus" --score-col 3 --id-col 4 --progress-every 0)  # as bench/score.sh
labels=(--label-cols 5,6 --label-names formality,arousal --label-buckets formality=0.5)

runs=()
run() {  # NAME ARGS...: `tdcone ARGS` timed on 2 ranks into $work/NAME.h5 (a failure stops the script)
  local name=$1 timing
  shift
  timing=$(timed_mpi 2 "$name" "$@")
  runs+=("$name:$timing")
}
run score score "${input[@]}"
run balance_joint balance "${input[@]}" "${labels[@]}" --mode joint --rank-by tdcone
run balance_joint_by_label balance "${input[@]}" "${labels[@]}" --mode joint --rank-by tdcone --by-label
run balance_marginal_random balance "${input[@]}" "${labels[@]}" --mode marginal --rank-by random --seed 1
run score_by_label score "${input[@]}" "${labels[@]}" --by-label

/usr/bin/python3 - "$work" "$pairs" "$(stat -c %s "$corpus")" "${runs[@]}" <<'PY'
import json, sys
import h5py
work, pairs, corpus_bytes = sys.argv[1:4]
result = {"benchmark": "balance", "profile": "twitter", "labels": True, "pairs": int(pairs),
          "corpus_bytes": int(corpus_bytes), "ranks": 2, "runs": {}}
for run in sys.argv[4:]:
    name, timing = run.split(":")
    seconds, rss = timing.split()
    result["runs"][name] = {"seconds": round(float(seconds), 2), "peak_rss_mb": [int(m) for m in rss.split(",")]}
runs = result["runs"]

with h5py.File(f"{work}/score.h5", "r") as f:
    result["corpus_tdcone"] = round(float(f["corpus"].attrs["tdcone"]), 4)
combinations = {}
with h5py.File(f"{work}/score_by_label.h5", "r") as f:
    t = f["labels"]
    for label, n, td in zip(t["label"].asstr()[()], t["n_pairs"][()], t["tdcone"][()]):
        combinations[label] = {"pairs": int(n), "tdcone": round(float(td), 4)}
with h5py.File(f"{work}/balance_joint.h5", "r") as f:
    c = f["combinations"]
    for name, before, after in zip(c["combination"].asstr()[()], c["before"][()], c["after"][()]):
        combinations.setdefault(name, {}).update(before=int(before), after_joint=int(after))
    result["share_std_joint"] = {k: round(float(f["balance"].attrs[k]), 4) for k in ("share_std_before", "share_std_after")}
result["combinations"] = combinations
result["balance_over_score"] = round(runs["balance_joint"]["seconds"] / runs["score"]["seconds"], 3)
result["balance_by_label_over_score"] = round(runs["balance_joint_by_label"]["seconds"] / runs["score"]["seconds"], 3)
result["balance_over_score_limit"] = 1.2
print(json.dumps(result, indent=1))
PY
