#!/usr/bin/env bash
# Writers never collide (issue 23, 3): each job writes its own temporary name;
# of two jobs writing one --output at once, one succeeds with a valid file and
# the other says at once that another job is writing it (never a misleading
# cause, never both failing); a lock a killed job left blocks nobody; a job
# ended by SIGTERM leaves neither the output nor its temporary file.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 20000 --output c.tsv 2>/dev/null || fail "synth"
"$TDCONE" score --input c.tsv --output ref.h5 >/dev/null 2>&1 || fail "score"
# job NAME: a 2-rank score into out.h5, its status in NAME.rc. Each job has
# its own TMPDIR: two mpiruns that start and end together in one share Open
# MPI's session directory, and one's cleanup can remove it while the other
# creates its own inside ("orte_session_dir failed"), a failure of the test,
# not of the lock.
job() {
  local rc=0 start=$SECONDS
  mkdir -p "$WORK/tmp-$1"
  TMPDIR="$WORK/tmp-$1" timeout -k 5 120 "${TDCONE_MPIRUN:-mpirun}" -n 2 --oversubscribe "$TDCONE" score \
    --input c.tsv --output out.h5 --force >/dev/null 2>"$1.err" || rc=$?
  echo "$rc $((SECONDS - start))" > "$1.rc"
}
for trial in 1 2 3 4 5; do
  rm -f out.h5
  job a & job b & wait
  read -r a_rc a_s < a.rc; read -r b_rc b_s < b.rc
  [ "$a_rc" = 0 ] || [ "$b_rc" = 0 ] || fail "trial $trial: both jobs failed: $(cat a.err b.err)"
  for j in a b; do
    read -r rc s < $j.rc
    [ "$rc" = 0 ] && continue
    [ "$rc" = 1 ] || fail "trial $trial: job $j exited $rc: $(cat $j.err)"
    [ "$s" -lt 15 ] || fail "trial $trial: job $j took ${s}s to fail"
    grep -q "another tdcone job is writing out.h5 (lock out.h5.lock held by pid [0-9]* on .*): wait for it or choose another --output" \
      $j.err || fail "trial $trial: job $j failed with an unclear cause: $(cat $j.err)"
  done
  "$PY" "$HERE/../e2e/compare_h5.py" ref.h5 out.h5 || fail "trial $trial: the output is not the result"
  ! ls out.h5.partial* >/dev/null 2>&1 || fail "trial $trial: a temporary file is left: $(ls out.h5.partial*)"
done
echo "ok: of two jobs writing one output at once, one writes it and the other says so at once (5 trials)"

flock --close out.h5.lock sleep 30 &  # the lock dies with flock, not with its sleep
holder=$!
sleep 1
bounded 15 1 "another tdcone job is writing out.h5 (lock out.h5.lock held" -- \
  run_mpi 3 score --input c.tsv --output out.h5 --force
flock --close rows.tsv.lock sleep 30 &
exporter=$!
sleep 1
bounded 15 1 "another tdcone job is writing rows.tsv (lock rows.tsv.lock held" -- "$TDCONE" export ref.h5 --output rows.tsv
kill "$holder" "$exporter"; wait "$holder" "$exporter" 2>/dev/null || true
"$TDCONE" export ref.h5 --output rows.tsv && [ "$(wc -l < rows.tsv)" = 20001 ] || fail "export after the lock is gone"
echo "pid 1 on gone" > out.h5.lock  # left by a killed job: its lock died with it
run_mpi 2 score --input c.tsv --output out.h5 --force >/dev/null 2>&1 || fail "a stale lock file blocks the output"
[ ! -e out.h5.lock ] || fail "the lock file is left after a successful write"
echo "ok: a held lock refuses a job within seconds; a stale lock file blocks nobody"

# saw_partial: whether a temporary out.h5.partial-* appears within a minute.
saw_partial() {
  for _ in $(seq 3000); do
    ls out.h5.partial-* >/dev/null 2>&1 && return 0
    sleep 0.02
  done
  return 1
}

# SIGTERM while the output is written: nothing under the final name, no temporary file.
awk 'BEGIN { for (i = 0; i < 2000000; i++) printf "w%d a b c d\tx%d y z\n", i % 5000, i % 7000 }' > big.tsv
rm -f out.h5
"$TDCONE" score --input big.tsv --output out.h5 >/dev/null 2>term.err &
pid=$!
# Seen once is enough: the job may finish its write and rename it before another look.
saw_partial || fail "no temporary file out.h5.partial-* seen"
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
if [ "$rc" = 0 ]; then
  "$PY" "$HERE/../e2e/compare_h5.py" out.h5 out.h5 || fail "a job that reported success left a bad output"
else
  [ "$rc" = 143 ] || fail "SIGTERM: exit $rc"
  [ ! -e out.h5 ] || fail "a job ended by SIGTERM left out.h5"
fi
! ls out.h5.partial* >/dev/null 2>&1 || fail "a job ended by SIGTERM left $(ls out.h5.partial*)"
echo "ok: SIGTERM during the write leaves no temporary file, and an output only with exit 0"
# The same on 2 ranks, each signalled (as scancel does): nor is the lock file left.
rm -f out.h5
run_mpi 2 score --input big.tsv --output out.h5 >/dev/null 2>term.err &
pid=$!
saw_partial || fail "no temporary file out.h5.partial-* seen on 2 ranks"
pkill -TERM -f "$TDCONE score --input big.tsv --output out.h5" || true
rc=0; wait "$pid" || rc=$?
if [ "$rc" = 0 ]; then
  "$PY" "$HERE/../e2e/compare_h5.py" out.h5 out.h5 || fail "a 2-rank job that reported success left a bad output"
else
  [ ! -e out.h5 ] || fail "a 2-rank job ended by SIGTERM (exit $rc) left out.h5"
fi
! ls out.h5.partial* out.h5.lock >/dev/null 2>&1 || fail "a 2-rank job ended by SIGTERM left $(ls out.h5.partial* out.h5.lock)"
echo "ok: SIGTERM to every rank during the write leaves no output, temporary or lock file (exit $rc)"
