#!/usr/bin/env bash
# scripts/plot.py draws every kind of result from tiny runs: the pair TD-CONE
# histogram (also --log-count), the shards of a score, a sweep with and
# without a reference, a selection (with a seed); auto picks the most specific
# group; the old positional form works; a file with nothing to plot, or
# without the group asked for, is a clear error.
source "$(dirname "$0")/lib.sh"
PLOT="$HERE/../../scripts/plot.py"
"$PY" -c "import matplotlib" 2>/dev/null || { echo "skipped: needs python3-matplotlib"; exit 77; }
cd "$WORK"
"$TDCONE" synth --pairs 2000 --seed 3 --output corpus.tsv >/dev/null 2>&1
"$TDCONE" synth --pairs 200 --seed 3 --first-pair 900000 --junk-fraction 0 --output repr.tsv >/dev/null 2>&1
head -50 corpus.tsv >seed.tsv
"$TDCONE" score --input corpus.tsv --score-col 3 --shards 3 --reference repr.tsv --output score.h5 >/dev/null 2>&1 \
  || fail "score"
"$TDCONE" sweep --input corpus.tsv --score-col 3 --reference repr.tsv --thresholds 0.2,0.5,0.8 --output sweep.h5 \
  >/dev/null 2>&1 || fail "sweep"
"$TDCONE" sweep --input corpus.tsv --score-col 3 --thresholds 0.3,0.6 --output sweep-noref.h5 >/dev/null 2>&1 \
  || fail "sweep without a reference"
"$TDCONE" select --representative repr.tsv --available corpus.tsv --seed-corpus seed.tsv --side tgt --stop \
  --output select.h5 >/dev/null 2>&1 || fail "select"

is_png() {  # FILE: a PNG of a sensible size
  [ -s "$1" ] || fail "$1 not written"
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1 is not a PNG"
  local size
  size=$(stat -c %s "$1")
  [ "$size" -gt 20000 ] && [ "$size" -lt 2000000 ] || fail "$1 has $size bytes"
  "$PY" - "$1" <<'PY' || fail "$1: unexpected picture size"
import sys, matplotlib.image
h, w = matplotlib.image.imread(sys.argv[1]).shape[:2]
assert 500 <= w <= 2000 and 400 <= h <= 1500, (w, h)
PY
}
plot() {  # EXPECTED-KIND ARGS...: runs plot.py, checks what it says it drew
  local kind=$1; shift
  "$PY" "$PLOT" "$@" >out.txt 2>err.txt || { cat err.txt; fail "plot.py $*"; }
  grep -q "^plot: wrote .* ($kind)" out.txt || fail "plot.py $* drew $(cat out.txt), not $kind"
}

plot shards score.h5 --output shards.png && is_png shards.png
grep -q "also in the file: pairs" out.txt || fail "auto does not name the other kind"
plot pairs score.h5 --kind pairs --output pairs.png && is_png pairs.png
plot pairs score.h5 --kind pairs --log-count --output pairs-log.png && is_png pairs-log.png
plot sweep sweep.h5 --output sweep.png && is_png sweep.png
plot sweep sweep-noref.h5 --output sweep-noref.png && is_png sweep-noref.png
plot selection select.h5 --output selection.png && is_png selection.png
plot selection select.h5 selection-old.png && is_png selection-old.png  # the old positional form
cmp -s pairs.png pairs-log.png && fail "--log-count changed nothing"
echo "ok: pairs (and --log-count), shards, sweep with and without a reference, selection"

"$PY" - <<'PY'
import h5py
with h5py.File("empty.h5", "w") as f:
    f.attrs["command"] = "score"
    f.create_group("corpus")
PY
expect_failure 1 "empty.h5 holds nothing to plot: no /pairs, /selection, /sweep or /shards" -- "$PY" "$PLOT" empty.h5 --output x.png
[ ! -e x.png ] || fail "a picture of nothing"
expect_failure 1 "select.h5 has no /sweep to plot (it has: selection)" -- "$PY" "$PLOT" select.h5 --kind sweep --output x.png
expect_failure 1 "cannot read missing.h5" -- "$PY" "$PLOT" missing.h5 --output x.png
expect_failure 2 "required" -- "$PY" "$PLOT" score.h5
echo "ok: nothing to plot, a missing group or file, no --output: clear errors"
