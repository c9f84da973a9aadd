#!/usr/bin/env bash
# A selection interrupted three times (SIGUSR1 to mpirun, SIGTERM to the
# ranks) and resumed each time writes the same /selection as an uninterrupted
# run; corrupt or foreign checkpoints are refused.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 600000 --seed 5 --output "$WORK/avail.tsv"
"$TDCONE" synth --pairs 5000 --seed 5 --first-pair 9000000 --junk-fraction 0 --output "$WORK/repr.tsv"
args=(select --representative "$WORK/repr.tsv" --available "$WORK/avail.tsv" --side tgt)

run_mpi 2 "${args[@]}" --output "$WORK/whole.h5" >/dev/null 2>&1 || fail "uninterrupted run"

# Each run is interrupted once its first progress line shows lines ranked
# (--progress-every 0.5), whatever the speed of the machine; a resumed run
# starts from its checkpoint, so every interruption is at a later point.
selecting() {  # until run $1 prints a selection progress line (1 if it ended first)
  while kill -0 "$1" 2>/dev/null; do
    grep -q '^\[select\] [0-9.]*[kM]* lines' "$WORK/run.err" && return 0
    sleep 0.1
  done
  return 1
}
interruptions=0
resume=()
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  # mpirun itself in the background (not a shell function), so $! is mpirun.
  : >"$WORK/run.err"  # now: the background job truncates it only once it runs, and the last run's progress would count
  ${TDCONE_MPIRUN:-mpirun} -n 2 --oversubscribe "$TDCONE" "${args[@]}" --output "$WORK/pieces.h5" "${resume[@]}" \
    --progress-every 0.5 >"$WORK/run.out" 2>"$WORK/run.err" &
  launcher=$!
  if [ "$interruptions" -lt 3 ] && selecting "$launcher"; then
    if [ "$interruptions" -eq 0 ]; then
      kill -USR1 "$launcher"                               # mpirun forwards SIGUSR1 to the ranks
    else
      pkill -TERM -f "^$TDCONE select --representative $WORK" || true  # the ranks themselves, not mpirun
    fi
  fi
  status=0
  wait "$launcher" || status=$?
  if [ "$status" -eq 75 ]; then
    interruptions=$((interruptions + 1))
    grep -o "checkpoint of [0-9]* ranked lines" "$WORK/run.err" >>"$WORK/points.txt"
    [ "$interruptions" -eq 1 ] && cp "$WORK/pieces.h5.ckpt" "$WORK/first.ckpt"
    resume=(--resume)
    continue
  fi
  [ "$status" -eq 0 ] || { grep -v "tsv:" "$WORK/run.err" | tail -20; fail "run $attempt exited $status"; }
  break
done
[ "$interruptions" -eq 3 ] || fail "expected 3 interruptions, got $interruptions ($(tr "\n" ";" <"$WORK/points.txt"))"
[ "$(sort -u "$WORK/points.txt" | wc -l)" -eq 3 ] || fail "interrupted at the same point twice: $(cat "$WORK/points.txt")"
[ ! -e "$WORK/pieces.h5.ckpt" ] || fail "checkpoint left after a finished run"
"$PY" "$HERE/compare_h5.py" "$WORK/whole.h5" "$WORK/pieces.h5" || fail "resumed run differs"
echo "ok: interrupted at $(tr '\n' ';' <"$WORK/points.txt") resumed to the same /selection"

# Through scripts/mpirun.sh (SIGUSR1 to the wrapper): exit 75 and one line
# saying where the checkpoint is and what to do, without Open MPI's banner
# about a non-zero exit status; the resumed run finishes with the same result.
: >"$WORK/run.err"
bash "$HERE/../../scripts/mpirun.sh" -n 2 "$TDCONE" "${args[@]}" --output "$WORK/wrapped.h5" --progress-every 0.5 \
  >/dev/null 2>"$WORK/run.err" &
wrapper=$!
selecting "$wrapper" || fail "the wrapped run ended before selecting: $(tail -5 "$WORK/run.err")"
kill -USR1 "$wrapper"
status=0
wait "$wrapper" || status=$?
[ "$status" -eq 75 ] || fail "wrapped run exited $status, not 75: $(tail -5 "$WORK/run.err")"
! grep -q "Primary job\|non-zero\|Forwarding signal\|^-----" "$WORK/run.err" || fail "Open MPI's banner: $(cat "$WORK/run.err")"
grep -v '^\[\|^  \|bad line(s)' "$WORK/run.err" >"$WORK/messages.txt" || true  # all but progress and bad lines
[ "$(wc -l <"$WORK/messages.txt")" -eq 1 ] \
  && grep -q "^tdcone select: stopped by a signal: checkpoint of [0-9]* ranked lines written to $WORK/wrapped.h5.ckpt; run the same command with --resume to continue" "$WORK/messages.txt" \
  || fail "the stop is not one clear line: $(cat "$WORK/messages.txt")"
bash "$HERE/../../scripts/mpirun.sh" -n 2 "$TDCONE" "${args[@]}" --output "$WORK/wrapped.h5" --resume --quiet \
  >/dev/null 2>"$WORK/run.err" || fail "wrapped resume: $(tail -5 "$WORK/run.err")"
! grep -q '^\[\|^  ' "$WORK/run.err" || fail "--quiet resume printed progress or bad lines: $(cat "$WORK/run.err")"
"$PY" "$HERE/compare_h5.py" "$WORK/whole.h5" "$WORK/wrapped.h5" || fail "wrapped resumed run differs"
# The wrapper keeps mpirun's exit status and its other messages.
rc=0
bash "$HERE/../../scripts/mpirun.sh" -n 1 "$WORK/no-such-program" 2>"$WORK/launch.err" || rc=$?
[ "$rc" -ne 0 ] && grep -q "no-such-program" "$WORK/launch.err" || fail "launch failure hidden (exit $rc): $(cat "$WORK/launch.err")"
echo "ok: under scripts/mpirun.sh a checkpoint stop is one line and exit 75, no Open MPI banner"

cp "$WORK/first.ckpt" "$WORK/other.h5.ckpt"
expect_failure 2 "belongs to another selection" -- run_mpi 2 "${args[@]}" --mincount 5 --output "$WORK/other.h5" --resume
head -c 100 "$WORK/first.ckpt" >"$WORK/cut.h5.ckpt"
expect_failure 2 "corrupt checkpoint" -- run_mpi 2 "${args[@]}" --output "$WORK/cut.h5" --resume
printf 'not a checkpoint' >"$WORK/junk.h5.ckpt"
expect_failure 2 "not a tdcone checkpoint" -- "$TDCONE" "${args[@]}" --output "$WORK/junk.h5" --resume
expect_failure 2 "cannot read checkpoint" -- "$TDCONE" "${args[@]}" --output "$WORK/none.h5" --resume
echo "ok: corrupt, foreign and missing checkpoints are refused"
