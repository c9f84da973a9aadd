#!/usr/bin/env bash
# Results are checked before use: export, balance --ranking, info and the
# Python helpers refuse, with exit status 1 and one line naming the file and
# what is wrong, a result of a newer major tdcone_version, one whose version is
# garbage or missing, a plain HDF5 file, and a table without a column tdcone
# writes into it; an unaltered result and an older version's still work.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
FRAME="$HERE/../../scripts/tdcone_frame.py"
PLOT="$HERE/../../scripts/plot.py"

"$TDCONE" synth --pairs 400 --seed 7 --junk-fraction 0 --output raw.tsv 2>/dev/null || fail "synth"
awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $2, $3, $4, (NR % 2 ? "formal" : "casual") }' raw.tsv > c.tsv
"$TDCONE" score --input c.tsv --output r.h5 >/dev/null 2>&1 || fail "score"
"$TDCONE" select --representative c.tsv --available c.tsv --output sel.h5 >/dev/null 2>&1 || fail "select"

# Altered copies, made with h5py; old.h5: an older tdcone's result (its inputs as root attributes).
"$PY" - <<'PY'
import shutil
import h5py
import numpy as np

def altered(source, name, change):
    shutil.copy(source, name)
    with h5py.File(name, "a") as f:
        change(f)

def set_version(text):
    return lambda f: f.attrs.__setitem__("tdcone_version", text)

def old_layout(f):
    f.attrs["tdcone_version"] = "0.0.1"
    f.attrs["inputs"] = "\n".join(p.decode() for p in f["inputs/path"][()])
    for column in ("size", "lines", "fingerprint"):
        f.attrs["input_" + column.rstrip("s") + "s"] = f["inputs"][column][()].astype(np.uint64)
    del f["inputs"]

altered("r.h5", "v9.h5", set_version("9.0.0"))
altered("r.h5", "garbage.h5", set_version("garbage"))
altered("r.h5", "noversion.h5", lambda f: f.attrs.__delitem__("tdcone_version"))
altered("r.h5", "norank.h5", lambda f: f["pairs"].__delitem__("rank"))
altered("r.h5", "old.h5", old_layout)
altered("sel.h5", "sel-v9.h5", set_version("9.0.0"))
altered("sel.h5", "sel-noid.h5", lambda f: f["selection"].__delitem__("pair_id"))
with h5py.File("plain.h5", "w") as f:  # an HDF5 file that is not tdcone's, with a table of the same name
    f["pairs/tdcone"] = np.zeros(400)
PY
[ -f plain.h5 ] || fail "altered copies"

V9="v9.h5 was written by tdcone 9.0.0, a newer major version than this tdcone .* reads (0.x and older): read it with tdcone 9.x"
GARBAGE="garbage.h5 has a tdcone_version attribute that is not a version ('garbage', not MAJOR.MINOR.PATCH)"
NOVERSION="noversion.h5 is an HDF5 file but not a tdcone result (no tdcone_version attribute on /)"
NORANK="norank.h5: /pairs has no 'rank' column, which .* needs (tdcone score writes pair_id, tdcone, rank, .*rerun tdcone score"
PLAIN="plain.h5 is an HDF5 file but not a tdcone result (no tdcone_version attribute on /)"
no_traceback() { ! grep -q Traceback "$WORK/err.txt" || fail "a Python traceback: $(cat "$WORK/err.txt")"; }

for case in v9:V9 garbage:GARBAGE noversion:NOVERSION norank:NORANK plain:PLAIN; do
  file=${case%%:*}.h5 var=${case#*:}
  pattern=${!var}
  bounded 60 1 "$pattern" -- "$TDCONE" export "$file"
  [ ! -s out.txt ] || fail "export of $file wrote rows"
  bounded 60 1 "$pattern" -- "$TDCONE" export "$file" --to jsonl --text --output x.jsonl.zst
  [ ! -e x.jsonl.zst ] || fail "export of $file left x.jsonl.zst"
  bounded 120 1 "$pattern" -- run_mpi 2 balance --input c.tsv --label-cols 5 --ranking "$file" --output b.h5
  [ ! -e b.h5 ] || fail "balance --ranking $file wrote b.h5"
  bounded 60 1 "$pattern" -- "$PY" "$FRAME" "$file"
  no_traceback
  bounded 60 1 "$pattern" -- "$PY" "$PLOT" "$file" --output x.png
  no_traceback
  [ "$var" != NORANK ] || grep -q "which plot needs" err.txt || fail "plot's refusal of $file does not say who needs it"
  [ ! -e x.png ] || fail "plot of $file drew x.png"
done
bounded 60 1 "$V9" -- "$TDCONE" info v9.h5
bounded 60 1 "$GARBAGE" -- "$TDCONE" info garbage.h5
echo "ok: a newer major, a garbage or missing version, a plain HDF5 file and /pairs without rank are refused"

# --rank-by cynical: the select result's version and its /selection columns.
bounded 120 1 "sel-v9.h5 was written by tdcone 9.0.0" -- run_mpi 2 balance --input c.tsv --label-cols 5 \
  --rank-by cynical --ranking sel-v9.h5 --output b.h5
bounded 120 1 "sel-noid.h5: /selection has no 'pair_id' column, which --rank-by cynical needs (tdcone select writes" -- \
  run_mpi 2 balance --input c.tsv --label-cols 5 --rank-by cynical --ranking sel-noid.h5 --output b.h5
bounded 60 1 "sel-noid.h5: /selection has no 'pair_id' column, which export needs" -- \
  "$TDCONE" export sel-noid.h5 --group selection
# A file of the wrong command: a select result for --rank-by tdcone (exit 1: the file, not an option, is wrong).
bounded 120 1 "--rank-by tdcone: sel.h5 has no /pairs table (tdcone score writes it)" -- \
  run_mpi 2 balance --input c.tsv --label-cols 5 --ranking sel.h5 --output b.h5
echo "ok: balance --ranking refuses a result without the columns it uses"

# The unaltered result and an older version's (inputs as root attributes) still work, with the same rows.
for file in r.h5 old.h5; do
  "$TDCONE" export "$file" --to jsonl --text --output "$file.jsonl" 2>err.txt || fail "export $file: $(cat err.txt)"
  run_mpi 2 balance --input c.tsv --label-cols 5 --ranking "$file" --quiet --output "b-$file" >/dev/null 2>err.txt \
    || fail "balance --ranking $file: $(cat err.txt)"
  TDCONE="$TDCONE" "$PY" "$FRAME" "$file" --text >/dev/null 2>err.txt || fail "tdcone_frame.py $file: $(cat err.txt)"
  "$PY" "$PLOT" "$file" --output "$file.png" >/dev/null 2>err.txt || fail "plot.py $file: $(cat err.txt)"
  "$TDCONE" info "$file" >/dev/null 2>err.txt || fail "info $file: $(cat err.txt)"
done
cmp -s r.h5.jsonl old.h5.jsonl || fail "the older version's result exports other rows"
"$PY" "$HERE/../e2e/compare_h5.py" b-r.h5 b-old.h5 || fail "balance ranked by the older version's result differs"
run_mpi 2 balance --input c.tsv --label-cols 5 --rank-by cynical --ranking sel.h5 --quiet --output b-sel.h5 >/dev/null 2>err.txt \
  || fail "balance --rank-by cynical: $(cat err.txt)"
echo "ok: an unaltered result and an older version's are read as before"
