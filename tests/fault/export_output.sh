#!/usr/bin/env bash
# Export reads only whole tables and every write error is an error: columns of
# different lengths are refused (no crash, no silent truncation), a full disk or
# device fails with a message naming the output, a reader that went away ends
# the command quietly with status 141 (128 + SIGPIPE, as coreutils), and
# --force replaces only regular files.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 20000 --output c.tsv 2>/dev/null || fail "synth"
"$TDCONE" score --input c.tsv --score-col 3 --id-col 4 --output r.h5 >/dev/null 2>&1 || fail "score"
head -300 c.tsv > small.tsv
"$TDCONE" select --representative small.tsv --available small.tsv --output sel.h5 >/dev/null 2>&1 || fail "select"

# Tables whose columns differ in length, built with h5py from good results.
"$PY" - <<'PY'
import shutil
import h5py
import numpy as np

def damaged(source, name, group, column, values):
    shutil.copy(source, name)
    with h5py.File(name, "a") as f:
        del f[group][column]
        f[group][column] = values

damaged("r.h5", "short-tdcone.h5", "pairs", "tdcone", np.zeros(3))              # reads past the end
damaged("r.h5", "short-flags.h5", "pairs", "flags", np.zeros(19999, np.uint8))  # silently truncated
damaged("r.h5", "long-score.h5", "pairs", "score", np.zeros(10**6))
damaged("sel.h5", "short-root.h5", "selection", "root_word", np.array([b"a"] * 7))
PY
for join in "" "--text --input c.tsv"; do
  # shellcheck disable=SC2086
  {
    bounded 60 2 "short-tdcone.h5: the columns of /pairs differ in length (rows: pair_id 20000, .*tdcone 3)" -- \
      "$TDCONE" export short-tdcone.h5 $join
    bounded 60 2 "short-flags.h5: the columns of /pairs differ in length (rows: pair_id 20000, .*flags 19999)" -- \
      "$TDCONE" export short-flags.h5 $join
    bounded 60 2 "long-score.h5: the columns of /pairs differ in length (rows: pair_id 20000, .*score 1000000)" -- \
      "$TDCONE" export long-score.h5 $join
  }
done
for jaded in "" "--jaded"; do
  # shellcheck disable=SC2086
  bounded 60 2 "short-root.h5: the columns of /selection differ in length (rows: .*root_word 7" -- \
    "$TDCONE" export short-root.h5 --group selection $jaded
done
[ ! -s "$WORK/out.txt" ] || fail "rows written from a damaged table"
echo "ok: tables whose columns differ in length are refused, naming the file, the columns and their lengths"

# Write errors: standard output on a full device.
full=(bash -c '"$@" > /dev/full' --)
bounded 60 1 "cannot write standard output: No space left on device" -- "${full[@]}" "$TDCONE" export r.h5
bounded 60 1 "cannot write standard output" -- "${full[@]}" "$TDCONE" export sel.h5 --group selection --jaded
# (A full output file is not staged here: `ulimit -f` small enough stops MPI's
# start-up first. The unit test StandardOutput.* covers the file's check.)
"$TDCONE" export r.h5 --output rows.tsv && [ "$(wc -l < rows.tsv)" = 20001 ] || fail "export to a file"
bounded 120 1 "cannot write the summary to standard output: No space left on device" -- \
  "${full[@]}" "$TDCONE" score --input small.tsv --output s.h5
bounded 120 1 "cannot write the summary to standard output" -- \
  "${full[@]}" "$TDCONE" sweep --input small.tsv --score-col 3 --thresholds 0.5 --output w.h5
bounded 120 1 "cannot write the summary to standard output" -- \
  "${full[@]}" "$TDCONE" select --representative small.tsv --available small.tsv --output t.h5
echo "ok: a write error on standard output is exit 1 with a message naming it"

# A reader that goes away: exit status 141, not death by SIGPIPE, and no message.
# (Python starts the command with SIGPIPE at its default, as a shell does.)
timeout -k 5 120 "$PY" - "$TDCONE" <<'PY' || fail "closed pipe"
import subprocess, sys
tdcone = sys.argv[1]

def reader_goes_away(args, read_first_line=True):
    p = subprocess.Popen([tdcone] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if read_first_line:
        p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    status = p.wait(timeout=100)
    # stderr may hold progress lines, never an error.
    assert status == 141 and "error" not in err, f"{args}: status {status}, stderr {err!r}"

reader_goes_away(["export", "r.h5"])
reader_goes_away(["export", "r.h5", "--text", "--input", "c.tsv"])
reader_goes_away(["export", "r.h5", "--text", "--to", "jsonl"])
reader_goes_away(["synth", "--pairs", "1000000", "--output", "-"])
reader_goes_away(["score", "--input", "small.tsv", "--output", "p.h5"], read_first_line=False)
PY
[ -e p.h5 ] || fail "score's result not written when its summary's reader went away"
echo "ok: a closed pipe ends export, synth and score summaries quietly with status 141"

# --force replaces regular files only: not a device (behind a symlink, itself
# refused as a link), FIFO or directory.
ln -s /dev/full full-device
mkfifo fifo
mkdir directory
for target in full-device fifo directory; do
  bounded 60 2 "not a regular file\|is a directory\|is a symbolic link" -- "$TDCONE" export r.h5 --output "$target" --force
  bounded 60 2 "not a regular file\|is a directory\|is a symbolic link" -- "$TDCONE" score --input small.tsv --output "$target" --force
  bounded 60 2 "not a regular file\|is a directory\|is a symbolic link" -- "$TDCONE" synth --pairs 10 --output "$target" --force
done
[ -L full-device ] && [ -c full-device ] && [ -p fifo ] && [ -d directory ] || fail "--force replaced a special file"
[ -c /dev/full ] || fail "/dev/full is no longer a character device"
echo "ok: --force refuses devices, FIFOs and directories"
