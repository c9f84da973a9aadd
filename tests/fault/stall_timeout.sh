#!/usr/bin/env bash
# A stopped rank (SIGSTOP: a swapped-out or wedged node) during align used to
# hang the job for ever while rank 0 went on printing an ETA. Under
# --stall-timeout 20 the job now ends within 40 s of the stop, non-zero, with
# a message naming the stalled rank and its phase, whichever rank it is (rank
# 0 answers the others' heartbeats). A slow but working job is not stopped,
# --stall-timeout 0 turns the watchdog off, and bad values are refused.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

for value in -1 three nan; do
  bounded 20 2 "tdcone: error: --stall-timeout: $value is not a number ≥ 0" -- \
    "$TDCONE" score --input x.tsv --output x.h5 "--stall-timeout=$value"
done
echo "ok: bad --stall-timeout values are refused"

"$TDCONE" synth --pairs 700000 --seed 5 --output c.tsv --progress-every 0 2>/dev/null
cat c.tsv c.tsv > long.tsv  # an align of several seconds, to stop a rank in

# Leftovers of a failed check: no stopped or running rank outlives the test.
trap 'for p in $(pgrep -f "$WORK/" || true); do kill -CONT "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
      rm -rf "$WORK"' EXIT

# The pid of rank RANK of the job writing OUTPUT (its tdcone process, not mpirun).
rank_pid() {
  local output=$1 rank=$2 pid
  for pid in $(pgrep -f -- "--output $output" || true); do
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$TDCONE" ] || continue
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank" && echo "$pid" && return
  done
}

# start NAME RANK TIMEOUT: a 3-rank score of long.tsv into $WORK/NAME.h5 under
# --stall-timeout TIMEOUT in the background ($job), once align reports
# progress; $pid: rank RANK's process.
start() {
  local name=$1 rank=$2 timeout=$3
  run_mpi 3 score --input long.tsv --output "$WORK/$name.h5" --stall-timeout "$timeout" --progress-every 0.5 \
    >/dev/null 2>"$WORK/$name.err" &
  job=$! pid=""
  for ((tenths = 0; tenths < 1200; ++tenths)); do
    grep -qs '^\[align\] ' "$WORK/$name.err" && pid=$(rank_pid "$WORK/$name.h5" "$rank") && [ -n "$pid" ] && return
    kill -0 "$job" 2>/dev/null || fail "$name: the job ended before align: $(tail -3 "$WORK/$name.err")"
    sleep 0.1
  done
  fail "$name: no rank $rank process in align after 120 s"
}
# pause SECONDS: $pid stopped that long, then continued.
pause() { kill -STOP "$pid"; sleep "$1"; kill -CONT "$pid" 2>/dev/null || true; }
# finish NAME: $job's exit status must be 0.
finish() { wait "$job" || fail "$1 failed: $(grep -v '^\[' "$WORK/$1.err")"; }

# A rank stopped for good: the job ends within 40 s, non-zero, naming it, and takes the stopped process along.
for rank in 2 0; do
  start "stop$rank" "$rank" 20
  kill -STOP "$pid"
  stopped=$SECONDS
  while kill -0 "$job" 2>/dev/null && ((SECONDS - stopped <= 40)); do sleep 0.5; done
  kill -0 "$job" 2>/dev/null && fail "rank $rank stopped: the job still runs $((SECONDS - stopped)) s later"
  status=0
  wait "$job" || status=$?
  [ "$status" -ne 0 ] || fail "rank $rank stopped: exit status 0"
  # A rank's phase is sent at each change; rank 0's comes with its answers, every 2 s.
  phase=align
  [ "$rank" != 0 ] || phase="(vocabulary|align)"
  grep -Eq "^tdcone: error: rank $rank \(host [^)]*\) made no progress for [0-9]+ s \(phase: $phase\) and does not answer; stopping the job \(--stall-timeout 20\)$" \
    "$WORK/stop$rank.err" || fail "rank $rank stopped: no message naming it: $(grep -v '^\[' "$WORK/stop$rank.err")"
  [ ! -e "$WORK/stop$rank.h5" ] || fail "rank $rank stopped: its output was written"
  sleep 2
  [ ! -e "/proc/$pid" ] || [ "$(awk '{print $3}' "/proc/$pid/stat")" = Z ] || fail "the stopped rank $rank outlived the job"
  echo "ok: rank $rank stopped during align: the job ended $((SECONDS - stopped)) s later, naming it"
done

# Slow but working: a rank paused for 8 s, under the timeout, only delays the job; no result changes.
start slow 1 20
pause 8
finish slow
start zero 1 0
pause 6
finish zero
"$PY" "$HERE/compare_h5.py" "$WORK/slow.h5" "$WORK/zero.h5" || fail "the watchdog changed the result"
echo "ok: a rank paused under the timeout does not stop the job, nor one paused with --stall-timeout 0"

# The same 6 s pause under --stall-timeout 3 stops the job.
start short 1 3
pause 6
status=0
wait "$job" || status=$?
[ "$status" -ne 0 ] && grep -q "^tdcone: error: rank 1 (host [^)]*) made no progress" "$WORK/short.err" \
  || fail "--stall-timeout 3 with a rank paused for 6 s: exit $status, $(grep -v '^\[' "$WORK/short.err")"
echo "ok: the pause that --stall-timeout 0 lets pass stops a job under --stall-timeout 3"
