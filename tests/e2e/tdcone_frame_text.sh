#!/usr/bin/env bash
# read_frame(..., text=True) joins the input text through `tdcone export
# --to jsonl --text`: for a score result, src and tgt of every good line
# verbatim and one row per input line; for a selection, the text of the
# selected side.
source "$(dirname "$0")/lib.sh"
"$PY" -c "import pandas" 2>/dev/null || { echo "skipped: needs python3-pandas"; exit 77; }
cd "$WORK"
"$TDCONE" synth --pairs 2000 --seed 9 --output corpus.tsv >/dev/null 2>&1
"$TDCONE" synth --pairs 200 --seed 9 --first-pair 900000 --junk-fraction 0 --output repr.tsv >/dev/null 2>&1
printf 'only one column\n' >>corpus.tsv  # a bad line
run_mpi 2 score --input corpus.tsv --score-col 3 --output score.h5 >/dev/null 2>&1 || fail "score"
run_mpi 2 select --representative repr.tsv --available corpus.tsv --side tgt --output select.h5 >/dev/null 2>&1 \
  || fail "select"
TDCONE="$TDCONE" "$PY" - "$HERE/../../scripts" <<'PY' || fail "read_frame(text=True)"
import sys
sys.path.insert(0, sys.argv[1])
from tdcone_frame import read_frame
lines = open("corpus.tsv", encoding="utf-8", newline="").read().split("\n")[:-1]
fields = [line.split("\t") for line in lines]
pairs = read_frame("score.h5", text=True)
assert len(pairs) == len(lines) and {"src", "tgt"} <= set(pairs.columns)
for row in pairs.itertuples():
    if not row.flags & 1:
        assert (row.src, row.tgt) == (fields[row.pair_id][0], fields[row.pair_id][1]), row.pair_id
assert all(type(v) is str for v in pairs.loc[(pairs["flags"] & 1) == 0, "src"])
bad = pairs[(pairs["flags"] & 1) != 0]
assert len(bad) == 1 and bad["src"].iloc[0] is None and bad["raw"].iloc[0].startswith("only one column"), bad
sel = read_frame("select.h5", "selection", text=True)
assert len(sel) == len(lines) and "text" in sel.columns
for row in sel.itertuples():
    if not row.flags & 1:
        assert row.text == fields[row.pair_id][1], row.pair_id
print(f"ok: text=True joins src/tgt ({len(pairs)} pairs) and a selection's text ({len(sel)} rows) verbatim")
PY
