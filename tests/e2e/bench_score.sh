#!/usr/bin/env bash
# bench/score.sh, the issue-20 benchmark, on a small corpus with the same
# binary as its BASELINE: it must print one JSON object whose figures are
# those of its runs (the ratios of one binary to itself near 1, every per-core
# figure and host figure positive), or a sitting's figures could be wrong
# without anyone seeing it.
source "$(dirname "$0")/lib.sh"
root=$(cd "$HERE/../.." && pwd)
rc=0
# SETTLE=0: no idling between runs, which only a sitting's timings need.
TDCONE=$TDCONE BASELINE=$TDCONE BENCH_DIR="$WORK/bench" REPEAT=2 SETTLE=0 \
  bash "$root/bench/score.sh" 3000 twitter 1 2 >"$WORK/bench.json" 2>"$WORK/bench.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/bench.err"; fail "bench/score.sh exited $rc"; }
"$PY" - "$WORK/bench.json" "$WORK/bench" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
def check(ok, what):
    if not ok:
        sys.exit(f"FAIL: {what}: {json.dumps(d)[:2000]}")
check(d["pairs"] == 3000 and d["nnz"] > 0 and d["cell_updates"] > 0 and d["tokens"] > 0, "corpus figures")
for n in ("1", "2"):
    f = d["ranks"][n]
    for b in ("new", "baseline"):
        e = f[b]
        check(len(e["runs_seconds"]) == 2 and e["seconds"] == min(e["runs_seconds"]), f"{n} ranks {b}: best of the runs")
        check(len(e["peak_rss_mb"]) == int(n) and all(m > 0 for m in e["peak_rss_mb"]), f"{n} ranks {b}: RSS per rank")
        check(e["ns_per_token_read"] > 0 and e["ns_per_cell_update"] > 0 and e["bytes_per_nnz"] > 0, f"{n} ranks {b}: per-core figures")
        check({"read", "align", "score"} <= set(e["phases"]), f"{n} ranks {b}: phases")
    r = f["new_over_baseline"]
    check(abs(r["whole"] - f["new"]["seconds"] / f["baseline"]["seconds"]) < 0.01, f"{n} ranks: whole ratio")
    # One binary against itself: the same memory, times within the noise of a small run.
    check(abs(r["bytes_per_nnz"] - 1) < 0.1, f"{n} ranks: bytes ratio")
    check(0.1 < r["run_by_run_median"] < 10, f"{n} ranks: run-by-run ratio")  # under a parallel ctest too
check(set(d["speedup_1_to_2"]) == {"new", "baseline"}, "speedups")
# ABBA: the binaries swap slots from one repeat to the next (the runs' logs end in run order).
bench = sys.argv[2]
for n in ("1", "2"):
    ended = sorted(("new", "baseline"), key=lambda b: os.path.getmtime(f"{bench}/{b}-{n}-1.log"))
    again = sorted(("new", "baseline"), key=lambda b: os.path.getmtime(f"{bench}/{b}-{n}-2.log"))
    check(ended == ["new", "baseline"] and again == ["baseline", "new"], f"{n} ranks: run order {ended} then {again}")
check(d["parallel_ceiling"]["copies"] == 2 and d["parallel_ceiling"]["ceiling"] > 0, "ceiling")
m = d["memory_host"]
check(all(m["fault_ms_per_mib"][k] > 0 for k in ("4k", "2m", "2m_just_freed")), "page-fault figures")
check(d["settle_seconds"] == 0, "the settle asked for")
check(all(m["latency_ns"][k] > 0 for k in ("1mib", "16mib", "256mib")) and m["stream_gb_s"] > 0, "memory figures")
print("ok: bench/score.sh figures consistent")
PY
