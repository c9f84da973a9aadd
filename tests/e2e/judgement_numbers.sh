#!/usr/bin/env bash
# The Twitter URL judgement "(n,m)" is the number n/m wherever a score or a
# bucketed label is read: score --score-col, sweep thresholds, --label-buckets
# (the paper's split: n <= 2, n = 3, n >= 4 of 6).
source "$(dirname "$0")/lib.sh"

# Twitter-shaped: sentence, sentence, (n,6), url; an empty line every 60 lines (as in the real test file).
"$TDCONE" synth --pairs 3000 --seed 31 --junk-fraction 0 --output "$WORK/synth.tsv" 2>/dev/null
awk -F'\t' 'BEGIN { OFS = "\t" } { n = int($3 * 7); if (n > 6) n = 6; $3 = "(" n ",6)"; print; if (NR % 60 == 0) print "" }' \
  "$WORK/synth.tsv" >"$WORK/twitter.tsv"

run_mpi 2 score --input "$WORK/twitter.tsv" --score-col 3 --id-col 4 --output "$WORK/score.h5" >/dev/null 2>&1 \
  || fail "score --score-col 3 on (n,6) judgements"
run_mpi 2 sweep --input "$WORK/twitter.tsv" --score-col 3 --thresholds 0.5,0.6 --output "$WORK/sweep.h5" >/dev/null 2>&1 \
  || fail "sweep --score-col 3 on (n,6) judgements"
run_mpi 2 score --input "$WORK/twitter.tsv" --label-cols 3 --label-names judgement --label-buckets judgement=0.5,0.6 \
  --by-label --output "$WORK/buckets.h5" >/dev/null 2>&1 || fail "--label-buckets judgement=0.5,0.6"

"$PY" - "$WORK" <<'PY'
import sys, h5py, numpy as np
work = sys.argv[1]
lines = open(f"{work}/twitter.tsv").read().split("\n")[:-1]
n = [int(l.split("\t")[2][1:-3]) if l else None for l in lines]
good = [k for k in n if k is not None]
with h5py.File(f"{work}/score.h5", "r") as f:
    flags, score = f["pairs/flags"][()], f["pairs/score"][()]
    assert [bool(x & 1) for x in flags] == [k is None for k in n], "the empty lines, and only they, are bad"
    assert [float(s) for s, k in zip(score, n) if k is not None] == [k / 6 for k in good], "score = n/6 exactly"
with h5py.File(f"{work}/sweep.h5", "r") as f:
    s = f["sweep"]
    assert list(s["threshold"][()]) == [0.5, 0.6]
    # >= 0.5: n >= 3 (3/6 is exactly 0.5); >= 0.6: n >= 4 (the paper's paraphrases)
    assert list(s["n_pairs"][()]) == [sum(k >= 3 for k in good), sum(k >= 4 for k in good)], list(s["n_pairs"][()])
with h5py.File(f"{work}/buckets.h5", "r") as f:
    t = f["labels"]
    assert list(t["label"].asstr()[()]) == ["low", "mid", "high"], list(t["label"].asstr()[()])
    expected = [sum(k <= 2 for k in good), sum(k == 3 for k in good), sum(k >= 4 for k in good)]
    assert list(t["n_pairs"][()]) == expected, (list(t["n_pairs"][()]), expected)
    assert not (f["pairs/flags"][()] & 16).any(), "every judgement is a usable number"
print("ok: (n,6) reads as n/6 in --score-col, sweep thresholds and --label-buckets")
PY

# Anything but "(n,m)" with 0 <= n <= m, m > 0 stays unparsable.
printf 'a b\tc d\t(7,6)\nx\ty\t(1,0)\n' >"$WORK/bad.tsv"
expect_failure 1 "unparsable score '(7,6)'" -- "$TDCONE" score --input "$WORK/bad.tsv" --score-col 3 --output "$WORK/bad.h5"
echo "ok: (7,6) and (1,0) are not numbers"
