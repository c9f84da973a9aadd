#!/usr/bin/env bash
# The README's everyday recipes, run as they are written there (the block
# between <!-- recipes --> and <!-- /recipes -->), so the README cannot drift
# from the program: scores as JSON lines with the text, the best selected
# lines as text, a pandas DataFrame with the text, and a label-balanced set.
source "$(dirname "$0")/lib.sh"
README="$HERE/../../README.md"
cd "$WORK"

# The files the recipes name: a Twitter-shaped corpus and an in-domain set.
"$TDCONE" synth --pairs 4000 --output corpus.tsv 2>/dev/null || fail "synth corpus"
"$TDCONE" synth --pairs 400 --seed 7 --output - 2>/dev/null | cut -f2 > in-domain.txt
# Twitter URL's layout: src, tgt, "(n,6)" (n annotators of 6 said paraphrase; from the score), url.
awk -F'\t' 'BEGIN { OFS = "\t" } NF >= 4 { n = int($3 * 7); if (n > 6) n = 6; print $1, $2, "(" n ",6)", "https://t.co/" $4 }' \
  corpus.tsv > twitter-url.tsv

# `tdcone` and Debian's python3 (with h5py and pandas) first on PATH, as for a user.
mkdir bin
ln -s "$TDCONE" bin/tdcone
ln -s "$PY" bin/python3
export PATH="$WORK/bin:$PATH" PYTHONPATH="$HERE/../../scripts"

awk '/^<!-- recipes -->/{on=1; next} /^<!-- \/recipes -->/{on=0} on' "$README" | sed 's/^    //' > recipes.sh
grep -q 'tdcone export' recipes.sh || fail "no recipes block in README.md"
bash -euo pipefail recipes.sh > recipes.out 2> recipes.err || { cat recipes.err; fail "the README recipes"; }

# 1. One JSON object per input line, with the text verbatim, NaN as null.
"$PY" - corpus.tsv scores.jsonl <<'PY' || fail "recipe 1: scores.jsonl"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]
rows = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(rows) == len(lines), (len(rows), len(lines))
for row, line in zip(rows, lines):
    fields = line.split("\t")
    if row["flags"] & 1:
        assert row["tdcone"] is None and row["src"] is None and row["raw"] == line, row
    else:
        assert (row["src"], row["tgt"]) == (fields[0], fields[1]), (row, fields)
PY

# 2. The best selected lines: lines of the corpus, verbatim, in rank order.
"$PY" - corpus.tsv sel.h5 best.tsv <<'PY' || fail "recipe 2: best.tsv"
import sys
import h5py
lines = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
s = h5py.File(sys.argv[2], "r")["selection"]
selected = [int(p) for p, f, r in zip(s["pair_id"][()], s["flags"][()], s["rank"][()])
            if f == 0 and r <= s.attrs["stop_rank"]]
best = open(sys.argv[3], "rb").read().split(b"\n")[:-1]
assert len(best) == min(1000, len(selected)) > 0, (len(best), len(selected))
assert best == [lines[p] for p in selected[:len(best)]]
PY

# 3. The DataFrame: one row per input line, text joined by pair_id.
grep -q 'pair_id' recipes.out || { cat recipes.out; fail "recipe 3 printed no frame"; }
grep -q 'rows' recipes.out || { cat recipes.out; fail "recipe 3 printed no row count"; }
grep -q "^4000 rows" recipes.out || { cat recipes.out; fail "recipe 3: not one row per input line"; }
# 4. The balanced lines: each judgement as often as the rarest one above the floor (rarer ones whole).
"$PY" - twitter-url.tsv balanced.h5 balanced.tsv <<'PY' || fail "recipe 4: balanced.tsv"
import collections, sys
import h5py
before = collections.Counter(l.split("\t")[2] for l in open(sys.argv[1], encoding="utf-8"))
after = collections.Counter(l.split("\t")[2] for l in open(sys.argv[3], encoding="utf-8"))
with h5py.File(sys.argv[2], "r") as f:
    c = f["combinations"]
    want = dict(zip(c["combination"].asstr()[()], c["after"][()].tolist()))
    under = dict(zip(c["combination"].asstr()[()], c["under_represented"][()].tolist()))
assert dict(after) == {k: v for k, v in want.items() if v}, (after, want)
common = {n for k, n in want.items() if not under[k]}
assert len(common) == 1 and all(after[k] == before[k] for k in want if under[k]), (want, under)
PY
# 5. The curated lines: exactly the lines the rules keep, read again from the text where they can be.
"$PY" - corpus.tsv curated.h5 curated.tsv <<'PY' || fail "recipe 5: curated.tsv"
import re, sys
import h5py
lines = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
with h5py.File(sys.argv[2], "r") as f:
    p = {k: f["pairs"][k][()] for k in ("flags", "markers", "score", "src_len", "tgt_len")}
keep = [i for i in range(len(lines))
        if p["markers"][i] == 0 and not p["flags"][i] & 32 and p["score"][i] > 0.7
        and 5 <= p["src_len"][i] <= 25 and 5 <= p["tgt_len"][i] <= 25]
curated = open(sys.argv[3], "rb").read().split(b"\n")[:-1]
assert 0 < len(curated) == len(keep) < len(lines), (len(curated), len(keep))
assert curated == [lines[i] for i in keep]
marker = re.compile(r"(^|[^\w])(https?://|www\.|[@#]\w)", re.I)
for line in curated:
    src, tgt, score = line.decode().split("\t")[:3]
    assert float(score) > 0.7, line
    for side in (src, tgt):
        assert not side.rstrip().endswith("?") and not marker.search(side), line
assert len(set(tuple(l.split(b"\t")[:2]) for l in curated)) == len(curated)  # no exact repeat
PY
# 6. The length table: every scored pair in one bucket, the buckets as asked.
"$PY" - lengths.h5 lengths.tsv <<'PY' || fail "recipe 6: lengths.tsv"
import sys
import h5py
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2], encoding="utf-8")]
assert rows[0][:5] == ["max_src_len", "n_pairs", "tdcone", "bleu", "unigram_precision"], rows[0]
assert [r[0] for r in rows[1:]] == ["5", "10", "20", "40", str(2**64 - 1)], rows
with h5py.File(sys.argv[1], "r") as f:
    assert sum(int(r[1]) for r in rows[1:]) == int(f.attrs["n_scored"])
PY
echo "ok: the README recipes run and give what they say"
