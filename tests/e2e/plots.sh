#!/usr/bin/env bash
# scripts/plot.py draws every kind of result from tiny runs: the pair TD-CONE
# histogram (also --log-count), the pairs' BLEU and length ratio, TD-CONE and
# BLEU per length bucket, the shards of a score, a sweep with and
# without a reference, a selection (with a seed), and label combinations and a
# balance from hand-made files; auto picks the most specific
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

"$TDCONE" score --input corpus.tsv --length-buckets 5,10,20,40 --output lengths.h5 >/dev/null 2>&1 || fail "score --length-buckets"
plot lengths lengths.h5 --output lengths.png && is_png lengths.png
grep -q "also in the file: pairs, diversity" out.txt || fail "auto does not name pairs and diversity: $(cat out.txt)"
plot diversity lengths.h5 --kind diversity --output diversity.png && is_png diversity.png
plot diversity score.h5 --kind diversity --log-count --output diversity-log.png && is_png diversity-log.png
plot pairs lengths.h5 --kind pairs --output lengths-pairs.png && is_png lengths-pairs.png
echo "ok: lengths (auto), diversity (also --log-count) asked for"
# Duplicate groups (score --dedup): drawn when asked; auto still draws the pairs and names them.
{ cat corpus.tsv; head -300 corpus.tsv; head -20 corpus.tsv; } >copies.tsv
"$TDCONE" score --input copies.tsv --dedup tokens --output dedup.h5 >/dev/null 2>&1 || fail "score --dedup"
plot duplicates dedup.h5 --kind duplicates --output duplicates.png && is_png duplicates.png
plot pairs dedup.h5 --output dedup-pairs.png && is_png dedup-pairs.png
grep -q "also in the file: .*duplicates" out.txt || fail "auto does not name the duplicates"
"$TDCONE" score --input corpus.tsv --dedup exact --output unique.h5 >/dev/null 2>&1 || fail "score --dedup exact"
plot duplicates unique.h5 --kind duplicates --output unique.png && is_png unique.png  # groups of sources, no copies
expect_failure 1 "score.h5 has no duplicate columns (score --dedup) to plot" -- "$PY" "$PLOT" score.h5 --kind duplicates --output x.png
echo "ok: duplicate groups"

# The label kinds, from files in the layout of `score --by-label` (/labels) and
# `tdcone balance` (/combinations, /balance): an empty combination, marginal
# rows, TD-CONE_REL; auto prefers balance, then labels, over pairs.
"$PY" - <<'PY'
import h5py, numpy as np
label = h5py.string_dtype("utf-8", 32)
joint = ["formal|aroused", "formal|calm", "informal|aroused", "informal|calm"]
def labels(f, rel):
    f.create_group("corpus").attrs["tdcone"] = 0.41
    g = f.create_group("labels")
    g["label"] = np.array(joint + ["formal|*", "informal|*", "*|aroused", "*|calm"], dtype=label)
    g["n_pairs"] = np.array([1280, 410, 190, 0, 1690, 190, 1470, 410], np.uint64)
    g["tdcone"] = np.array([0.40, 0.43, 0.47, np.nan, 0.405, 0.47, 0.41, 0.43])
    g["cond_entropy"] = g["tdcone"][()] * 3
    if rel:
        f["corpus"].attrs["tdcone_rel"] = 0.62
        for column in ("tdcone_rel", "kl_pq", "kl_pu"):
            g[column] = np.array([0.6, 0.65, 0.7, np.nan, 0.61, 0.7, 0.6, 0.66])
    f.create_group("pairs")["tdcone"] = np.linspace(0, 1, 2000)
def balance(f):
    b = f.create_group("balance")
    b.attrs["mode"] = "joint"
    b.attrs["share_std_before"], b.attrs["share_std_after"] = 0.2298, 0.0
    c = f.create_group("combinations")
    c["combination"] = np.array(joint, dtype=label)
    c["before"] = np.array([8685, 2792, 1275, 828], np.uint64)
    c["target"] = np.full(4, 828.0)
    c["after"] = np.full(4, 828, np.uint64)
    c["under_represented"] = np.array([0, 0, 0, 1], np.uint8)
for name, rel in (("labels.h5", False), ("labels-rel.h5", True)):
    with h5py.File(name, "w") as f:
        f.attrs["tdcone_version"], f.attrs["command"] = "0.1.0", "score"
        labels(f, rel)
with h5py.File("balance.h5", "w") as f:
    f.attrs["tdcone_version"], f.attrs["command"] = "0.1.0", "balance"
    labels(f, False)
    balance(f)
PY
plot labels labels.h5 --output labels.png && is_png labels.png
grep -q "also in the file: pairs" out.txt || fail "auto does not name /pairs beside /labels"
plot labels labels-rel.h5 --output labels-rel.png && is_png labels-rel.png
plot balance balance.h5 --output balance.png && is_png balance.png
plot labels balance.h5 --kind labels --output balance-labels.png && is_png balance-labels.png
echo "ok: labels (with and without TD-CONE_REL), balance; auto prefers them"

"$PY" - <<'PY'
import h5py
with h5py.File("empty.h5", "w") as f:
    f.attrs["tdcone_version"], f.attrs["command"] = "0.1.0", "score"
    f.create_group("corpus")
PY
expect_failure 1 "empty.h5 holds nothing to plot: no /pairs, /selection, /sweep or /shards" -- "$PY" "$PLOT" empty.h5 --output x.png
[ ! -e x.png ] || fail "a picture of nothing"
expect_failure 1 "select.h5 has no /sweep to plot (it has: selection)" -- "$PY" "$PLOT" select.h5 --kind sweep --output x.png
expect_failure 1 "cannot read missing.h5" -- "$PY" "$PLOT" missing.h5 --output x.png
expect_failure 2 "required" -- "$PY" "$PLOT" score.h5
echo "ok: nothing to plot, a missing group or file, no --output: clear errors"
