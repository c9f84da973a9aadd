#!/usr/bin/env bash
# Benchmark of `tdcone score` on a corpus shaped like the real ones (synth
# --profile twitter: the 2.8M-pair Twitter URL corpus; paraphrase: the
# Shakespeare bitext), against a BASELINE binary in the same run. Speed is a
# ratio: machines differ, so both binaries run in one sitting, alternating,
# and the best of REPEAT runs of each is kept. The order swaps from one
# repeat to the next (new, baseline, baseline, new, new, ...): the second
# run of a pair can be slower whichever binary it is, and a fixed order
# would hand that slot to the same binary every time (REPEAT=2 or any even
# count gives each binary each slot as often). As the load of other tenants
# comes and goes, the ratio is also given run by run: run r
# of the new binary over run r of the baseline, the two next to each other
# in time, and the median of those (the figure that one lucky run does not
# move).
#
# Prints one JSON object: the corpus (profile, pairs, bytes, tokens, nnz of
# M, cell updates), and per rank count and binary: the wall time, the phase
# times the run stored, peak RSS per rank, and the per-core figures
#   ns_per_token_read  = read seconds x ranks / tokens (both sides),
#   ns_per_cell_update = align seconds x ranks / cell updates of M,
#   bytes_per_nnz      = sum of peak RSS over ranks / nnz(M);
# the ratios new/baseline (whole job and each phase), the 1->2 rank speedup
# of each binary, and this machine's own ceiling for that speedup (two
# copies of a compute-bound loop against one: bench/micro/parallel_ceiling.cpp),
# and what its memory costs (first-touch page faults, latency beyond each cache,
# one core's streaming: bench/micro/memory_host.cpp). With 1 and 2 ranks,
# also the ceiling of this workload: two 1-rank runs of the new binary on
# the two halves of the corpus at once, which share nothing but the host,
# against its 1-rank run on the whole (the loop is compute-bound, the
# score job waits on memory, and two such processes slow each other). The engine waits on
# memory where 098b3dc waits on page faults, so the ratios move with the host:
# compare sittings by these figures too.
#
# BASELINE is a tdcone binary, or a commit: then it is built once with git
# worktree into ${BASELINE_DIR:-/tmp/tdcone-baseline-COMMIT} (issue 20's
# baseline is 098b3dc: BASELINE=098b3dc bench/score.sh). Without BASELINE,
# only the new binary runs.
#
# SETTLE (default 10): seconds of idling before every timed run, so that
# every run starts from the same state of the machine's memory: on a virtual
# machine whose host takes free memory back, a run that starts right after
# another gets that one's freed pages back cheaper than one that starts later
# (bench/micro/memory_host.cpp measures both).
#
# NEW_ARGS: more score options for the new binary only. The cost of an
# option is then a ratio too: BASELINE=build/tdcone NEW_ARGS="--dedup tokens
# --length-buckets 5,10,20,40" compares the same binary with and without.
# Usage: [BASELINE=commit|binary] [REPEAT=2] [SETTLE=10] [NEW_ARGS=...] bench/score.sh [PAIRS] [PROFILE] [RANKS...]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-2800000}
profile=${2:-twitter}
shift $(( $# > 2 ? 2 : $# ))
ranks=("${@:-1 2}")
read -r -a ranks <<<"${ranks[*]}"
repeat=${REPEAT:-2}
settle() { sleep "${SETTLE:-10}"; }

baseline=${BASELINE:-}
[ -n "$baseline" ] && baseline=$(baseline_binary "$baseline")
corpus=$(synth_corpus "$profile" "$pairs")
options=(--score-col 3 --id-col 4 --progress-every 0)
score=(score --input "$corpus" "${options[@]}")
binaries=(new)
[ -n "$baseline" ] && binaries+=(baseline)
runs=()
for n in "${ranks[@]}"; do
  for r in $(seq "$repeat"); do
    order=("${binaries[@]}")
    (( r % 2 == 0 )) && mapfile -t order < <(printf '%s\n' "${binaries[@]}" | tac)  # ABBA: each binary takes each slot
    for b in "${order[@]}"; do
      binary=$tdcone extra=()
      [ "$b" = baseline ] && binary=$baseline
      [ "$b" = new ] && read -r -a extra <<<"${NEW_ARGS:-}"
      settle
      read -r s m < <(tdcone=$binary timed_mpi "$n" "$b-$n-$r" "${score[@]}" "${extra[@]}")
      runs+=("$b:$n:$r:$s:$m")
    done
  done
done
halves=""  # seconds of each sitting of the two halves at once, comma-separated
if [[ " ${ranks[*]} " == *" 1 "* && " ${ranks[*]} " == *" 2 "* ]]; then
  half=$(( $(wc -l <"$corpus") / 2 ))
  head -n "$half" "$corpus" >"$work/half-1.tsv"
  tail -n +"$((half + 1))" "$corpus" >"$work/half-2.tsv"
  read -r -a extra <<<"${NEW_ARGS:-}"  # as the new binary's 1-rank run
  for r in $(seq "$repeat"); do
    settle
    start=$(now) pids=()
    for h in 1 2; do  # each its own TMPDIR: concurrent mpiruns must not share a session directory
      mkdir -p "$work/tmp-half-$h"
      TMPDIR="$work/tmp-half-$h" timed_mpi 1 "half-$h" score --input "$work/half-$h.tsv" "${options[@]}" \
        "${extra[@]}" >/dev/null &
      pids+=($!)
    done
    wait "${pids[0]}" && wait "${pids[1]}" || exit 1  # timed_mpi printed the failed run's log
    halves="$halves${halves:+,}$(echo "$(now) - $start" | bc)"
  done
  rm -f "$work"/half-?.tsv
fi
build=$(dirname "$tdcone")  # the micro-benchmarks are built beside it
for micro in ceiling memory; do
  [ -x "$build/tdcone_bench_$micro" ] || cmake --build "$build" --target "tdcone_bench_$micro" >&2
done
ceiling=$("$build/tdcone_bench_ceiling" 2)
settle
memory=$("$build/tdcone_bench_memory")

/usr/bin/python3 - "$work" "$pairs" "$profile" "$(stat -c %s "$corpus")" "$ceiling" "$memory" "$halves" "${runs[@]}" <<'PY'
import json, os, sys
import h5py
import numpy as np
work, pairs, profile, corpus_bytes, ceiling, memory, halves = sys.argv[1:8]
result = {"benchmark": "score", "new_args": os.environ.get("NEW_ARGS", ""), "settle_seconds": float(os.environ.get("SETTLE", "10")), "profile": profile, "pairs": int(pairs), "corpus_bytes": int(corpus_bytes)}
best = {}  # (binary, ranks) -> the fastest of its runs
seconds_of = {}  # (binary, ranks, run) -> seconds
for run in sys.argv[8:]:
    binary, n, r, seconds, rss = run.split(":")
    key = (binary, int(n))
    seconds_of[(binary, int(n), int(r))] = float(seconds)
    if key not in best or float(seconds) < best[key]["seconds"]:
        best[key] = {"seconds": float(seconds), "rss_mb": [int(x) for x in rss.split(",")], "file": f"{work}/{binary}-{n}-{r}.h5"}
with h5py.File(best[("new", min(n for _, n in best))]["file"], "r") as f:
    corpus = f["corpus"].attrs
    result.update(nnz=int(corpus["nnz"]), vx=int(corpus["vx"]), vy=int(corpus["vy"]), tdcone=float(corpus["tdcone"]))
    pairs_table = f["pairs"]
    result["tokens"] = int(pairs_table["src_len"][()].sum(dtype=np.uint64) + pairs_table["tgt_len"][()].sum(dtype=np.uint64))
    result["cell_updates"] = int(f.attrs["cell_updates"]) if "cell_updates" in f.attrs else None
figures = {}
for (binary, n), run in sorted(best.items()):
    with h5py.File(run["file"], "r") as f:
        phases = {k[len("seconds_"):]: round(float(v), 3) for k, v in f.attrs.items() if k.startswith("seconds_")}
    runs_seconds = [v for (b, m, _), v in sorted(seconds_of.items()) if (b, m) == (binary, n)]
    entry = {"seconds": round(run["seconds"], 2), "median_seconds": round(float(np.median(runs_seconds)), 2),
             "runs_seconds": [round(v, 2) for v in runs_seconds], "phases": phases, "peak_rss_mb": run["rss_mb"],
             "bytes_per_nnz": round(sum(run["rss_mb"]) * 2**20 / result["nnz"], 1)}
    if "read" in phases:
        entry["ns_per_token_read"] = round(phases["read"] * n * 1e9 / result["tokens"], 1)
    if "align" in phases and result["cell_updates"]:
        entry["ns_per_cell_update"] = round(phases["align"] * n * 1e9 / result["cell_updates"], 2)
    figures.setdefault(str(n), {})[binary] = entry
for n, pair in figures.items():
    if "baseline" in pair:
        new, old = pair["new"], pair["baseline"]
        ratios = {"whole": round(new["seconds"] / old["seconds"], 3)}
        for phase in new["phases"]:
            if old["phases"].get(phase):
                ratios[phase] = round(new["phases"][phase] / old["phases"][phase], 3)
        ratios["bytes_per_nnz"] = round(new["bytes_per_nnz"] / old["bytes_per_nnz"], 3)
        paired = [seconds_of[("new", int(n), r)] / seconds_of[("baseline", int(n), r)]
                  for (b, m, r) in sorted(seconds_of) if (b, m) == ("new", int(n)) and ("baseline", m, r) in seconds_of]
        ratios["run_by_run"] = [round(v, 3) for v in paired]
        ratios["run_by_run_median"] = round(float(np.median(paired)), 3)
        ratios["median_over_median"] = round(new["median_seconds"] / old["median_seconds"], 3)
        pair["new_over_baseline"] = ratios
result["ranks"] = figures
if "1" in figures and "2" in figures:
    result["speedup_1_to_2"] = {b: round(figures["1"][b]["seconds"] / figures["2"][b]["seconds"], 3)
                                for b in figures["1"] if b in figures["2"] and b != "new_over_baseline"}
result["parallel_ceiling"] = json.loads(ceiling)
if halves:
    together = [float(v) for v in halves.split(",")]
    result["workload_ceiling"] = {"halves_together_seconds": [round(v, 2) for v in together],
                                  "ceiling": round(figures["1"]["new"]["seconds"] / min(together), 3)}
result["memory_host"] = json.loads(memory)
print(json.dumps(result, indent=1))
PY
