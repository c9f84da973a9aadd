#!/usr/bin/env bash
# A selection's checkpoint is its own. Another job's checkpoint at the path
# survives (refused at the start unless --force), one of the same selection
# without --resume is refused with the hint to use --resume or --force, a
# second job on the same path is refused at once, --checkpoint naming the
# --output file is refused, so is a folder where no file can be made, a
# periodic checkpoint that fails on a full disk warns and the selection goes
# on, and scripts/mpirun.sh exits 75 after a SIGTERM that stopped a selection.
# The read-only folder and the full disk are tmpfs mounts: as root, or as an
# unprivileged user inside a user and mount namespace of its own (unshare -rm).
if [ "$(id -u)" != 0 ]; then
  unshare -rm true 2>/dev/null || { echo "skip: not root and no user namespaces for a tmpfs"; exit 77; }
  # Inside, we are "root": Open MPI's session directory must not be real root's.
  TMPDIR=$(mktemp -d) exec unshare -rm bash "$0" "$@"
fi
source "$(dirname "$0")/lib.sh"
cd "$WORK"
mounts=()
trap 'for m in "${mounts[@]}"; do umount "$m"; done; rm -rf "$WORK"' EXIT

MPIRUN=(${TDCONE_MPIRUN:-mpirun} --oversubscribe)
"$TDCONE" synth --pairs 300000 --seed 7 --output a.tsv --progress-every 0 2>/dev/null
"$TDCONE" synth --pairs 200000 --seed 8 --output b.tsv --progress-every 0 2>/dev/null
head -5000 a.tsv >small.tsv
"$TDCONE" synth --pairs 3000 --seed 7 --first-pair 9000000 --junk-fraction 0 --output repr.tsv --progress-every 0 2>/dev/null
select_args=(select --representative repr.tsv --side tgt --progress-every 0.5)

# start LOG command...: runs the command in the background ($launcher) and
# returns once the selection shows progress (fails if it ends before).
start() {
  local log=$1; shift
  "$@" >/dev/null 2>"$log" &
  launcher=$!
  for ((tenths = 0; tenths < 3000; ++tenths)); do
    grep -q '^\[select\] [0-9.]*[kM]* lines' "$log" && return 0
    kill -0 "$launcher" 2>/dev/null || fail "'$*' ended before selecting: $(tail -3 "$log")"
    sleep 0.1
  done
  fail "'$*' shows no progress after 300 s"
}
# finish STATUS LOG: waits at most 300 s for $launcher, which must exit STATUS.
finish() {
  local status=$1 log=$2 rc=0
  for ((tenths = 0; tenths < 3000; ++tenths)); do
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$launcher" 2>/dev/null && { kill -KILL "$launcher"; fail "hang: still running after 300 s"; }
  wait "$launcher" || rc=$?
  [ "$rc" -eq "$status" ] || fail "exit $rc, not $status: $(grep -v '^\[' "$log" | tail -5)"
}

# Sequential: B stopped by a signal leaves shared.ckpt; A, another selection, is refused and leaves it.
start b.err "${MPIRUN[@]}" -n 2 "$TDCONE" "${select_args[@]}" --available b.tsv --output b.h5 --checkpoint shared.ckpt
kill -USR1 "$launcher"
finish 75 b.err
cp shared.ckpt b.copy
bounded 300 2 "shared.ckpt holds the checkpoint of another selection (its --available lines differ" -- \
  run_mpi 2 "${select_args[@]}" --available a.tsv --output a.h5 --checkpoint shared.ckpt
cmp -s shared.ckpt b.copy || fail "another selection's checkpoint was changed or removed"
[ ! -e a.h5 ] || fail "a selection ran over another one's checkpoint"
echo "ok: another selection's checkpoint is refused at the start and kept"

# The same selection without --resume: refused with the hint, on 3 ranks.
bounded 300 2 "run with --resume to continue it, or with --force to start over" -- \
  run_mpi 3 "${select_args[@]}" --available b.tsv --output b.h5 --checkpoint shared.ckpt
cmp -s shared.ckpt b.copy || fail "the refused run changed the checkpoint"
echo "ok: the same selection without --resume is refused with a hint to --resume or --force"

# --force starts over: the checkpoint is A's once A stops, and A resumes from it.
start a.err "${MPIRUN[@]}" -n 2 "$TDCONE" "${select_args[@]}" --available a.tsv --output a.h5 --checkpoint shared.ckpt --force
kill -USR1 "$launcher"
finish 75 a.err
cmp -s shared.ckpt b.copy && fail "--force kept the old checkpoint"
succeeds 300 "${MPI[@]}" 2 "$TDCONE" "${select_args[@]}" --available a.tsv --output a.h5 --checkpoint shared.ckpt --resume
[ -e a.h5 ] || fail "no a.h5 after the run"
[ ! -e shared.ckpt ] || fail "the finished run left its checkpoint"
echo "ok: --force replaces another selection's checkpoint"

# Concurrent: a second job on the checkpoint of a running one is refused at once.
start a.err "${MPIRUN[@]}" -n 2 "$TDCONE" "${select_args[@]}" --available a.tsv --output running.h5 --checkpoint busy.ckpt
# Paused (its lock stays held) while the second job runs, so that it cannot
# finish first on a fast machine.
pkill -STOP -f -- "--output running.h5"
bounded 120 1 "busy.ckpt.*held by" -- \
  run_mpi 2 "${select_args[@]}" --available b.tsv --output second.h5 --checkpoint busy.ckpt
pkill -CONT -f -- "--output running.h5"
kill -USR1 "$launcher"
finish 75 a.err
[ ! -e second.h5 ] || fail "the second job wrote its result"
succeeds 300 "${MPI[@]}" 2 "$TDCONE" "${select_args[@]}" --available a.tsv --output running.h5 --checkpoint busy.ckpt --resume
[ -e running.h5 ] || fail "no running.h5 after the run"
echo "ok: a second job on a running job's checkpoint is refused at once"

# --checkpoint naming the --output file, in three spellings.
mkdir sub
for spelling in ./same.h5 sub/../same.h5 "$WORK/same.h5"; do
  bounded 120 2 "checkpoint $spelling is the --output file same.h5" -- \
    run_mpi 2 "${select_args[@]}" --available small.tsv --output same.h5 --checkpoint "$spelling"
done
[ ! -e same.h5 ] || fail "a result was written with --checkpoint naming it"
echo "ok: --checkpoint naming the --output file is refused"

# A folder where no file can be made is named at the start (4 ranks), and a file as the folder.
mkdir ro && mount -t tmpfs -o ro,size=64k tmpfs ro && mounts+=("$WORK/ro") || fail "cannot mount a tmpfs"
bounded 120 2 "checkpoint ro/run.ckpt: cannot create a file in ro (Read-only file system)" -- \
  run_mpi 4 "${select_args[@]}" --available small.tsv --output ro-run.h5 --checkpoint ro/run.ckpt
touch afile
bounded 120 2 "checkpoint afile/run.ckpt: afile is not a directory" -- \
  run_mpi 2 "${select_args[@]}" --available small.tsv --output ro-run.h5 --checkpoint afile/run.ckpt
[ ! -e ro-run.h5 ] || fail "a result was written with a checkpoint that cannot be"
echo "ok: a read-only checkpoint folder is refused at the start"

# A periodic checkpoint on a disk that fills up: a warning, the previous
# checkpoint kept, and the selection goes on to the uninterrupted result.
succeeds 300 "${MPI[@]}" 2 "$TDCONE" "${select_args[@]}" --available a.tsv --output whole.h5
[ -e whole.h5 ] || fail "no whole.h5 after the run"
mkdir full && mount -t tmpfs -o size=8m tmpfs full && mounts+=("$WORK/full") || fail "cannot mount a tmpfs"
start full.err "${MPIRUN[@]}" -n 2 "$TDCONE" "${select_args[@]}" --available a.tsv --output periodic.h5 \
  --checkpoint full/run.ckpt --checkpoint-every 0.01
for ((tenths = 0; tenths < 600; ++tenths)); do
  grep -q "checkpoint of [0-9]* ranked lines written to full/run.ckpt" full.err && break
  sleep 0.1
done
grep -q "ranked lines written to full/run.ckpt" full.err || fail "no periodic checkpoint: $(tail -3 full.err)"
dd if=/dev/zero of=full/filler bs=64k 2>/dev/null || true
for ((tenths = 0; tenths < 600; ++tenths)); do
  grep -q "warning: cannot write checkpoint full/run.ckpt" full.err && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.1
done
cp full/run.ckpt kept.ckpt 2>/dev/null || fail "the previous checkpoint is gone: $(grep -v '^\[' full.err | tail -3)"
rm full/filler
finish 0 full.err
grep -q "warning: cannot write checkpoint full/run.ckpt: No space left on device; the previous checkpoint ([0-9]* ranked lines) is kept, and --resume from it gives the same result" full.err \
  || fail "no warning about the failed checkpoint: $(grep -v '^\[' full.err | tail -5)"
"$PY" "$HERE/../e2e/compare_h5.py" whole.h5 periodic.h5 || fail "the selection that went on differs"
[ ! -e full/run.ckpt ] || fail "the finished run left its checkpoint"
succeeds 300 "${MPI[@]}" 2 "$TDCONE" "${select_args[@]}" --available a.tsv --output kept.h5 --checkpoint kept.ckpt --resume
[ -e kept.h5 ] || fail "no kept.h5 after the run"
"$PY" "$HERE/../e2e/compare_h5.py" whole.h5 kept.h5 || fail "resumed from the kept checkpoint: the result differs"
echo "ok: a periodic checkpoint on a full disk warns, keeps the previous one, and the selection goes on"

# scripts/mpirun.sh after SIGTERM: mpirun returns 1, the wrapper 75.
start wrapped.err bash "$HERE/../../scripts/mpirun.sh" -n 2 "$TDCONE" "${select_args[@]}" --available a.tsv \
  --output wrapped.h5
kill -TERM "$launcher"
finish 75 wrapped.err
grep -q "stopped by a signal: checkpoint of [0-9]* ranked lines written to wrapped.h5.ckpt" wrapped.err \
  || fail "no checkpoint line: $(tail -3 wrapped.err)"
echo "ok: scripts/mpirun.sh exits 75 after a SIGTERM that stopped a selection"
