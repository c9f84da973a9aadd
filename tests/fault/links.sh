#!/usr/bin/env bash
# Files tdcone creates are never reached through a link (issue 69, 1): a
# symbolic link planted where a lock file or the output should be is refused,
# naming it, and what it points at is left as it was (a dangling one creates
# nothing); the temporary files a killed job left are removed by the next job
# on the same output, each named; SIGINT and SIGTERM during `export` leave
# neither its temporary file nor its lock; a file where a folder should be is
# named as such; plot.py and tdcone_frame.py --csv never write through a link.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
SCRIPTS=$HERE/../../scripts
LABELS=(--label-cols 5,6 --label-buckets col5=0.5)

"$TDCONE" synth --pairs 3000 --labels --output c.tsv 2>/dev/null || fail "synth"
"$TDCONE" score --input c.tsv --output r.h5 >/dev/null 2>&1 || fail "score"
printf 'precious\n' > victim.txt
# untouched: victim.txt still holds its one line.
untouched() { [ "$(cat victim.txt)" = precious ] || fail "$1: the link's target was written: $(head -c 80 victim.txt)"; }

# A lock file that is a link to another file: every writer refuses it.
ln -s victim.txt out.h5.lock
bounded 60 1 "out.h5.lock is a symbolic link, which tdcone will not follow" -- \
  run_mpi 2 score --input c.tsv --output out.h5
untouched "score on 2 ranks"
bounded 60 1 "out.h5.lock is a symbolic link" -- run_mpi 3 balance --input c.tsv "${LABELS[@]}" --output out.h5
untouched "balance on 3 ranks"
bounded 60 1 "out.h5.lock is a symbolic link" -- \
  run_mpi 2 select --representative c.tsv --available c.tsv --output out.h5
untouched "select on 2 ranks"
[ ! -e out.h5 ] && [ -L out.h5.lock ] || fail "a refused job left out.h5 or removed the link"
ln -s victim.txt x.tsv.lock
bounded 60 1 "x.tsv.lock is a symbolic link, which tdcone will not follow" -- "$TDCONE" export r.h5 --output x.tsv
untouched "export"
bounded 60 1 "x.tsv.lock is a symbolic link" -- run_mpi 2 export r.h5 --output x.tsv
untouched "export on 2 ranks"
[ ! -e x.tsv ] || fail "a refused export left x.tsv"
# A dangling link: nothing is created where it points.
ln -s planted.txt y.h5.lock
bounded 60 1 "y.h5.lock is a symbolic link" -- run_mpi 2 score --input c.tsv --output y.h5
[ ! -e planted.txt ] || fail "score created the dangling lock link's target"
ln -s planted.txt y.tsv.lock
bounded 60 1 "y.tsv.lock is a symbolic link" -- "$TDCONE" export r.h5 --output y.tsv
[ ! -e planted.txt ] || fail "export created the dangling lock link's target"
rm -f ./*.lock
echo "ok: a linked lock file is refused by score, balance, select and export, its target untouched or never created"

# The output itself a link, --force or not: neither followed nor replaced.
ln -s victim.txt linked.h5
bounded 60 2 "output file linked.h5 is a symbolic link, which tdcone will not follow or replace (not even with --force)" -- \
  run_mpi 3 score --input c.tsv --output linked.h5 --force
bounded 60 2 "linked.h5 is a symbolic link" -- run_mpi 2 score --input c.tsv --output linked.h5
ln -s victim.txt linked.tsv
bounded 60 2 "output file linked.tsv is a symbolic link" -- "$TDCONE" export r.h5 --output linked.tsv --force
ln -s nowhere.h5 dangling.h5
bounded 60 2 "output file dangling.h5 is a symbolic link" -- run_mpi 2 score --input c.tsv --output dangling.h5
untouched "an output that is a link"
[ -L linked.h5 ] && [ -L linked.tsv ] && [ -L dangling.h5 ] && [ ! -e nowhere.h5 ] || fail "an output link was replaced or followed"
echo "ok: an output path that is a symbolic link is refused, --force or not, naming it"

# Temporary files a killed job left: the next job on that output removes
# them once it holds the lock, naming each; a link among them is left alone.
printf 'half an HDF5 file' > s.h5.partial-Ab12Cd
printf '' > s.h5.partial-Ab12Cd.locktest.1
ln -s victim.txt s.h5.partial-Lnk000
bounded 60 0 "removed s.h5.partial-Ab12Cd, a temporary file a stopped job left" -- \
  run_mpi 2 score --input c.tsv --output s.h5
grep -q "removed s.h5.partial-Ab12Cd.locktest.1" "$WORK/err.txt" || fail "the .locktest file is not named: $(cat "$WORK/err.txt")"
[ ! -e s.h5.partial-Ab12Cd ] && [ ! -e s.h5.partial-Ab12Cd.locktest.1 ] || fail "a stale temporary file is left"
[ -L s.h5.partial-Lnk000 ] || fail "a link among the temporary files was removed"
untouched "a link among the temporary files"
rm s.h5.partial-Lnk000
printf 'half an export' > e.tsv.partial-Zz9yX8
bounded 60 0 "removed e.tsv.partial-Zz9yX8" -- "$TDCONE" export r.h5 --output e.tsv
[ ! -e e.tsv.partial-Zz9yX8 ] || fail "export left a stale temporary file"
echo "ok: stale temporary files are removed by the next job on the output and named"

# SIGTERM and SIGINT during export: neither the temporary file nor the lock is left.
awk 'BEGIN { for (i = 0; i < 600000; i++) printf "w%d a b c d\tx%d y z\n", i % 5000, i % 7000 }' > big.tsv
"$TDCONE" score --input big.tsv --output big.h5 >/dev/null 2>&1 || fail "score big.tsv"
# SIGKILL of every rank while the result is written: the temporary file is
# left (nothing can remove it then), and the next job on that output removes it.
# The file lives for a few tens of milliseconds, so a kill can come too late:
# then the job has finished (k.h5 exists) and the attempt is made again. A
# kill in time that leaves no temporary file is the failure this test is for.
left=""
for attempt in $(seq 10); do
  rm -f k.h5
  run_mpi 2 score --input big.tsv --output k.h5 >/dev/null 2>&1 &
  mpirun_pid=$!
  for _ in $(seq 20000); do
    ls k.h5.partial-* >/dev/null 2>&1 && break
    kill -0 "$mpirun_pid" 2>/dev/null || break
  done
  # Every process of the job at once (mpirun and both ranks): nobody is left to clean up.
  pkill -KILL -f -- "--output k.h5" || true
  wait "$mpirun_pid" || true
  if left=$(ls k.h5.partial-?????? 2>/dev/null); then break; fi
  [ -e k.h5 ] || fail "SIGKILL of every rank left no temporary file to clear (attempt $attempt)"
done
[ -n "$left" ] || fail "in 10 attempts the kill never came while the result was written"
bounded 120 0 "removed $left, a temporary file a stopped job left" -- run_mpi 2 score --input c.tsv --output k.h5
! ls k.h5.partial-* >/dev/null 2>&1 || fail "the next job left $(ls k.h5.partial-*)"
echo "ok: the temporary file of a job whose ranks were all killed is removed by the next job, named"

# signal_export SIGNAL N: an export of big.h5 on N ranks (0: no mpirun), sent SIGNAL while it writes.
signal_export() {
  local signal=$1 ranks=$2 pid rc=0
  rm -f rows.tsv
  set -m  # job control: a background job keeps SIGINT's default action
  if [ "$ranks" = 0 ]; then
    timeout -k 5 120 "$TDCONE" export big.h5 --text --input big.tsv --output rows.tsv 2>sig.err &
  else
    timeout -k 5 120 "${TDCONE_MPIRUN:-mpirun}" -n "$ranks" --oversubscribe "$TDCONE" export big.h5 --text \
      --input big.tsv --output rows.tsv 2>sig.err &
  fi
  pid=$!
  set +m
  for _ in $(seq 3000); do
    ls rows.tsv.partial-* >/dev/null 2>&1 && break
    sleep 0.02
  done
  ls rows.tsv.partial-* >/dev/null 2>&1 || fail "$signal on $ranks ranks: no temporary file rows.tsv.partial-* seen"
  kill -"$signal" "$pid"  # timeout passes it on, to tdcone or to mpirun (which passes it to the ranks)
  wait "$pid" || rc=$?
  [ "$rc" != 124 ] || fail "$signal on $ranks ranks: export still running after 120 s"
  sleep 1  # the ranks of an ended mpirun are gone within a moment
  # mpirun passes a signal on with a delay: the export may have finished (and
  # renamed its file) before it arrived, and mpirun still exits 1. Whatever
  # the status, rows.tsv is absent or whole, never cut off.
  if [ "$rc" = 0 ] || [ -e rows.tsv ]; then
    [ "$(wc -l < rows.tsv)" = 600001 ] || fail "$signal on $ranks ranks: export (exit $rc) left an incomplete rows.tsv"
  fi
  ! ls rows.tsv.partial-* rows.tsv.lock >/dev/null 2>&1 \
    || fail "$signal on $ranks ranks: export (exit $rc) left $(ls rows.tsv.partial-* rows.tsv.lock 2>/dev/null)"
}
signal_export TERM 0
signal_export INT 0
signal_export TERM 2
echo "ok: SIGTERM and SIGINT during export leave neither its temporary file nor its lock (1 and 2 ranks)"

# A file where the output's folder should be is named as what it is.
printf 'x' > afile
bounded 60 2 "afile is not a directory (it is a file)" -- run_mpi 2 score --input c.tsv --output afile/b.h5
bounded 60 2 "afile is not a directory (it is a file)" -- "$TDCONE" export r.h5 --output afile/b.tsv
bounded 60 2 "nodir does not exist" -- "$TDCONE" export r.h5 --output nodir/b.tsv
echo "ok: a file on the output's path is named, not called a missing directory"

# plot.py and tdcone_frame.py --csv: a link is never written through, an
# existing file replaced only with --force.
if "$PY" -c "import h5py, pandas, matplotlib" 2>/dev/null; then
  ln -s victim.txt picture.png
  ln -s victim.txt frame.csv
  expect_failure 2 "picture.png is a symbolic link" -- "$PY" "$SCRIPTS/plot.py" r.h5 --output picture.png --force
  expect_failure 2 "frame.csv is a symbolic link" -- "$PY" "$SCRIPTS/tdcone_frame.py" r.h5 --csv frame.csv --force
  untouched "plot.py, tdcone_frame.py"
  "$PY" "$SCRIPTS/tdcone_frame.py" r.h5 --csv new.csv >/dev/null || fail "tdcone_frame.py --csv new.csv"
  expect_failure 2 "new.csv exists: use --force" -- "$PY" "$SCRIPTS/tdcone_frame.py" r.h5 --csv new.csv
  "$PY" "$SCRIPTS/tdcone_frame.py" r.h5 --csv new.csv --force >/dev/null || fail "tdcone_frame.py --csv --force"
  [ "$(wc -l < new.csv)" = 3001 ] || fail "tdcone_frame.py --csv wrote $(wc -l < new.csv) lines"
  # A link put in place while the file is written: still not followed.
  PYTHONPATH="$SCRIPTS" "$PY" - <<'PY' || fail "_tdcone_output followed a link that appeared meanwhile"
import os, _tdcone_output
try:
    with _tdcone_output.new_output("late.png", True, "test") as file:
        file.write(b"picture")
        os.symlink("victim.txt", "late.png")
except SystemExit as stop:
    assert "late.png is a symbolic link" in str(stop), stop
else:
    raise AssertionError("no refusal")
assert open("victim.txt").read() == "precious\n" and os.path.islink("late.png")
assert not [name for name in os.listdir(".") if name.startswith("late.png.partial-")], "a temporary file is left"
PY
  ls ./*.partial-* >/dev/null 2>&1 && fail "a temporary file is left: $(ls ./*.partial-*)"
  echo "ok: plot.py and tdcone_frame.py --csv never write through a link, replace a file only with --force"
else
  echo "skipped: plot.py and tdcone_frame.py need python3-h5py, -pandas and -matplotlib"
fi
