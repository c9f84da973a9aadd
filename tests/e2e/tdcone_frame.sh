#!/usr/bin/env bash
# scripts/tdcone_frame.py: read_frame of a score result (/pairs, /shards, with
# a string id column) and of a selection (/selection, root_word strings)
# equals what h5py reads, column by column, with strings as str, one row per
# input line and the root and group attributes in df.attrs; the command line
# prints and writes CSV; a missing group is a clear error.
source "$(dirname "$0")/lib.sh"
"$PY" -c "import pandas" 2>/dev/null || { echo "skipped: needs python3-pandas"; exit 77; }
cd "$WORK"
"$TDCONE" synth --pairs 3000 --seed 8 --output corpus.tsv >/dev/null 2>&1
"$TDCONE" synth --pairs 200 --seed 8 --first-pair 900000 --junk-fraction 0 --output repr.tsv >/dev/null 2>&1
printf 'only one column\n' >>corpus.tsv  # a bad line
run_mpi 2 score --input corpus.tsv --score-col 3 --id-col 4 --shards 2 --output score.h5 >/dev/null 2>&1 || fail "score"
run_mpi 2 select --representative repr.tsv --available corpus.tsv --side tgt --compression zstd --output select.h5 \
  >/dev/null 2>&1 || fail "select"

"$PY" - "$HERE/../../scripts" "$(wc -l <corpus.tsv)" <<'PY' || fail "read_frame"
import sys
sys.path.insert(0, sys.argv[1])
from tdcone_frame import read_frame
import h5py, numpy as np, pandas as pd
lines = int(sys.argv[2])

def same(path, group):
    df = read_frame(path, group)
    with h5py.File(path, "r") as f:
        g = f[group]
        assert list(df.columns) == list(g.keys()), (list(df.columns), list(g.keys()))
        for name in g:
            raw = g[name][()]
            if raw.dtype.kind in "SO":
                expected = [v.decode() if isinstance(v, bytes) else v for v in raw]
                assert all(type(v) is str for v in df[name]), f"{name}: not str"
                assert list(df[name]) == expected, name
            else:
                assert df[name].dtype == raw.dtype, (name, df[name].dtype, raw.dtype)
                np.testing.assert_array_equal(df[name].to_numpy(), raw, err_msg=name)
        for key, value in f.attrs.items():
            value = value.decode() if isinstance(value, bytes) else value
            assert df.attrs[key] == value, key
    return df

pairs = same("score.h5", "pairs")
assert len(pairs) == lines, (len(pairs), lines)
assert list(pairs["pair_id"]) == list(range(lines))
assert pairs["id"].iloc[0].startswith("syn-") and (pairs["flags"].iloc[-1] & 1)
assert pairs.attrs["command"] == "score" and pairs.attrs["n_lines"] == lines
assert 0 < pairs.attrs["/corpus"]["tdcone"] < 1
shards = same("score.h5", "/shards")
assert len(shards) == 2 and shards["n_pairs"].sum() == pairs.attrs["n_scored"]
sel = same("select.h5", "selection")  # zstd-compressed: the module finds build/plugins
assert len(sel) == lines and sorted(sel["pair_id"]) == list(range(lines))
assert isinstance(sel["root_word"].iloc[0], str) and sel["root_word"].iloc[0]
assert sel.attrs["/selection"]["stop_rank"] > 0 and sel.attrs["command"] == "select"
try:
    read_frame("score.h5", "sweep")
    raise AssertionError("no KeyError")
except KeyError as error:
    assert "has no /sweep (it has: /corpus, /inputs, /pairs, /shards)" in str(error), error
print(f"ok: read_frame equals h5py column by column ({len(pairs)} pairs, {len(sel)} selection rows)")
PY

# The join of text=True, against a stand-in for `tdcone export --to jsonl --text`
# that writes the rows in reverse order (the real one: tdcone_frame_text.sh).
cat >fake-tdcone <<FAKE
#!/bin/sh
exec "$PY" - "\$@" <<'FAKEPY'
import json, sys, h5py
args = sys.argv[1:]
assert args[0] == "export" and args[2:] == ["--group", args[3], "--to", "jsonl", "--text"], args
lines = open("corpus.tsv", encoding="utf-8").read().split("\\n")
with h5py.File(args[1], "r") as f:
    ids = f[args[3]]["pair_id"][()]
for i in reversed(ids.tolist()):
    cols = lines[i].split("\\t")
    row = {"pair_id": i, "src": cols[0], "tgt": cols[1] if len(cols) > 1 else ""} if args[3] == "pairs" else \
          {"pair_id": i, "text": cols[1] if len(cols) > 1 else ""}
    print(json.dumps(row))
FAKEPY
FAKE
chmod +x fake-tdcone
TDCONE="$WORK/fake-tdcone" "$PY" - "$HERE/../../scripts" <<'PY' || fail "read_frame(text=True) with a stand-in export"
import sys
sys.path.insert(0, sys.argv[1])
from tdcone_frame import read_frame
fields = [line.split("\t") for line in open("corpus.tsv", encoding="utf-8").read().split("\n")[:-1]]
pairs = read_frame("score.h5", text=True)
assert list(pairs.columns[-2:]) == ["src", "tgt"] and len(pairs) == len(fields)
assert all(row.src == fields[row.pair_id][0] for row in pairs.itertuples())
sel = read_frame("select.h5", "selection", text=True)
assert all(row.text == fields[row.pair_id][1] for row in sel.itertuples() if not row.flags & 1)
try:
    read_frame("score.h5", "shards", text=True)
    raise AssertionError("no ValueError")
except ValueError as error:
    assert "no pair_id" in str(error)
print("ok: text=True joins by pair_id (stand-in export, rows reversed)")
PY

"$PY" "$HERE/../../scripts/tdcone_frame.py" score.h5 --group shards >out.txt || fail "the command"
grep -q "^score.h5 /shards: 2 rows x 5 columns" out.txt || fail "the command's summary: $(cat out.txt)"
"$PY" "$HERE/../../scripts/tdcone_frame.py" select.h5 --group selection --csv sel.csv || fail "--csv"
[ "$(wc -l <sel.csv)" -eq "$(( $(wc -l <corpus.tsv) + 1 ))" ] || fail "--csv rows"
head -1 sel.csv | grep -q "^pair_id,rank,delta_h" || fail "--csv header"
expect_failure 1 "has no /nope" -- "$PY" "$HERE/../../scripts/tdcone_frame.py" score.h5 --group nope
echo "ok: the command prints, writes CSV and refuses a missing group"
