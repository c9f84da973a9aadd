#!/usr/bin/env bash
# The work of `tdcone score`, counted: instructions and mispredicted branches
# under callgrind (valgrind --tool=callgrind --branch-sim=yes), the whole job
# and each phase, on one rank, against a BASELINE binary. Wall-time ratios
# (bench/score.sh) move with the host's load and memory; these counts do
# not, so two sittings compare closely (docs/performance.md, How to measure,
# says how closely). They do not see what an instruction waits on (cache
# misses, page faults): they complement the wall times, not replace them.
#
# One rank only: with several, a rank that waits for another polls in MPI,
# and its count follows who came first. On one rank the phases' counts
# repeat; the whole job's moves a little (start-up, the write, the threads
# that wake with the clock).
#
# A phase is the inclusive count of the function that runs it: read
# read_corpus_job, vocabulary route_vocabulary, align accumulate, score
# score_subsets, rank global_ranks_grouped; `rest` is the whole minus those
# (start-up, the write, the summary).
#
# Prints one JSON object.
# Usage: [BASELINE=commit|binary] bench/instructions.sh [PAIRS] [PROFILE]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-100000}
profile=${2:-twitter}
command -v valgrind >/dev/null || { echo "bench/instructions.sh needs valgrind (apt-get install valgrind)" >&2; exit 2; }

baseline=${BASELINE:-}
[ -n "$baseline" ] && baseline=$(baseline_binary "$baseline")
corpus=$(synth_corpus "$profile" "$pairs")
binaries=(new)
[ -n "$baseline" ] && binaries+=(baseline)
for b in "${binaries[@]}"; do
  binary=$tdcone
  [ "$b" = baseline ] && binary=$baseline
  mpirun -n 1 valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$work/cg-$b" \
    "$binary" score --input "$corpus" --score-col 3 --id-col 4 --progress-every 0 --quiet \
    --output "$work/cg-$b.h5" --force >"$work/cg-$b.log" 2>&1 || { cat "$work/cg-$b.log" >&2; exit 1; }
  callgrind_annotate --inclusive=yes --threshold=100 "$work/cg-$b" >"$work/cg-$b.txt" 2>/dev/null
done

/usr/bin/python3 - "$work" "$pairs" "$profile" "${binaries[@]}" <<'PY'
import json, re, sys
work, pairs, profile = sys.argv[1:4]
phases = {"read": "::read_corpus_job(", "vocabulary": "::route_vocabulary(",  # cli:: in older builds
          "align": "::accumulate(", "score": "::score_subsets(", "rank": "::global_ranks_grouped("}
def counts(path):
    """Instructions (whole and by phase) and mispredicted branches of a run."""
    lines = open(path).read().splitlines()
    events = next(l for l in lines if l.startswith("Events shown:")).split(":")[1].split()
    def row(line):  # "1,234 (5.6%) . 78 ( 0.01%) ... file:function": a count or "." an event
        tokens = re.sub(r"\([^)]*\)", " ", line).split()[:len(events)]
        return dict(zip(events, (0 if t == "." else int(t.replace(",", "")) for t in tokens)))
    total = row(next(l for l in lines if l.rstrip().endswith("PROGRAM TOTALS")))
    figures = {"instructions": total["Ir"], "mispredicted_branches": total["Bcm"] + total["Bim"], "phases": {}}
    for phase, name in phases.items():  # the largest: the function itself, not a lambda inside it
        figures["phases"][phase] = max((row(l)["Ir"] for l in lines if name in l), default=0)
    figures["phases"]["rest"] = total["Ir"] - sum(figures["phases"].values())
    return figures
result = {"benchmark": "instructions", "profile": profile, "pairs": int(pairs), "ranks": 1}
for binary in sys.argv[4:]:
    result[binary] = counts(f"{work}/cg-{binary}.txt")
if "baseline" in result:
    new, old = result["new"], result["baseline"]
    ratios = {k: round(new[k] / old[k], 3) for k in ("instructions", "mispredicted_branches")}
    ratios.update({p: round(v / old["phases"][p], 3) for p, v in new["phases"].items() if old["phases"][p]})
    result["new_over_baseline"] = ratios
print(json.dumps(result, indent=1))
PY
