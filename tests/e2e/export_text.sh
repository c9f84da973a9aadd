#!/usr/bin/env bash
# tdcone export as the way results leave tdcone: JSON lines and TSV with the
# input text joined verbatim (bad lines keep their raw text, NaN is null),
# --where/--sort-by/--top, --selected and --lines-only on a selection, .zst
# output, inputs checked against the recorded sizes and fingerprints (moved,
# changed), tdcone info, and h5py reading strings as str.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 3000 --output c.tsv 2>/dev/null || fail "synth"
# Bad lines: invalid UTF-8, one column only, a tab-separated JSON-looking line.
printf 'caf\xe9 au lait\tcoffee\t0.5\tbad-1\n' >> c.tsv
printf 'a line with no tab at all\n' >> c.tsv
"$TDCONE" synth --pairs 500 --first-pair 3000 --output tail.tsv 2>/dev/null || fail "synth tail"
cat tail.tsv >> c.tsv
lines=$(wc -l < c.tsv)
run_mpi 2 score --input c.tsv --score-col 3 --id-col 4 --output r.h5 >/dev/null 2>score.log || { cat score.log; fail "score"; }

# ---- JSON lines with the text
"$TDCONE" export r.h5 --to jsonl --text --output r.jsonl || fail "export --to jsonl --text"
"$PY" - r.h5 r.jsonl c.tsv <<'PY' || fail "jsonl --text"
import json, math, sys
import h5py, numpy as np
h5, out, corpus = sys.argv[1:]
rows = [json.loads(line) for line in open(out, encoding="utf-8")]  # every line parses, valid UTF-8
raw = open(corpus, "rb").read().split(b"\n")[:-1]
p = h5py.File(h5, "r")["pairs"]
assert len(rows) == len(raw) == p["pair_id"].shape[0], (len(rows), len(raw))
names = list(p.keys())
tdcone, flags = p["tdcone"][()], p["flags"][()]
ids = p["id"].asstr()[()]
nan_rows = 0
for i, row in enumerate(rows):
    assert row["pair_id"] == i
    assert set(names) <= set(row), row
    if math.isnan(tdcone[i]):
        assert row["tdcone"] is None, row
        nan_rows += 1
    else:
        assert row["tdcone"] == tdcone[i], (row["tdcone"], tdcone[i])  # full precision
    assert row["id"] == ids[i]
    if flags[i] & 1:
        assert row["src"] is None and row["tgt"] is None, row
        assert row["raw"] == raw[i].decode("utf-8", errors="replace"), (row["raw"], raw[i])
    else:
        cells = raw[i].decode("utf-8").split("\t")
        assert row["src"] == cells[0] and row["tgt"] == cells[1] and "raw" not in row, (row, cells)
bad = [i for i in range(len(rows)) if flags[i] & 1]
assert 3000 in bad and 3001 in bad, bad
assert rows[3000]["raw"] == "caf\ufffd au lait\tcoffee\t0.5\tbad-1"
assert nan_rows == 0 or all(rows[i]["tdcone"] is None for i in bad)
print(f"ok: {len(rows)} JSON lines, {len(bad)} bad lines with their raw text, {nan_rows} NaN as null")
PY

# TSV with the text: same rows, a header, src/tgt/raw columns.
"$TDCONE" export r.h5 --text --output r.tsv || fail "export --text"
[ "$(wc -l < r.tsv)" -eq $((lines + 1)) ] || fail "TSV --text: $(wc -l < r.tsv) lines for $lines"
head -1 r.tsv | grep -q $'^pair_id\ttdcone\trank\tflags\tsrc_len\ttgt_len\tscore\tid\tbleu\tunigram_precision\tlen_ratio\tmarkers\tsrc\ttgt\traw$' || fail "TSV header: $(head -1 r.tsv)"
sed -n 3002p r.tsv | grep -q $'\t\t\tcaf\xef\xbf\xbd au lait coffee 0.5 bad-1$' || fail "TSV bad line: $(sed -n 3002p r.tsv)"
echo "ok: TSV with src, tgt and raw"

# .zst output is the same text, compressed.
"$TDCONE" export r.h5 --to jsonl --text --output r.jsonl.zst || fail "export .zst"
zstd -qdc r.jsonl.zst | cmp - r.jsonl || fail ".zst output differs from plain"
echo "ok: .zst output"

# ---- --where, --sort-by, --descending, --top
"$TDCONE" export r.h5 --to jsonl --where 'flags==0' --where 'score>=0.3' --where 'tdcone<0.9' \
  --sort-by tdcone --descending --top 25 --output top.jsonl || fail "export --top"
"$TDCONE" export r.h5 --to jsonl --sort-by tdcone --output sorted.jsonl || fail "export --sort-by"
"$TDCONE" export r.h5 --to jsonl --sort-by tdcone --descending --output sorted-down.jsonl || fail "export --descending"
"$PY" - r.h5 <<'PY' || fail "--where/--sort-by/--top"
import json, sys
import h5py, numpy as np
p = h5py.File(sys.argv[1], "r")["pairs"]
t, s, f = p["tdcone"][()], p["score"][()], p["flags"][()]
keep = np.flatnonzero((f == 0) & (s >= 0.3) & (t < 0.9))
order = keep[np.argsort(-t[keep], kind="stable")][:25]
top = [json.loads(l)["pair_id"] for l in open("top.jsonl")]
assert top == order.tolist(), (top, order.tolist())
for name, down in (("sorted.jsonl", False), ("sorted-down.jsonl", True)):
    got = [json.loads(l)["pair_id"] for l in open(name)]
    finite = np.flatnonzero(~np.isnan(t))
    expect = finite[np.argsort(-t[finite] if down else t[finite], kind="stable")].tolist()
    expect += np.flatnonzero(np.isnan(t)).tolist()  # NaN last either way, in row order
    assert got == expect, name
print("ok: --where, --sort-by (NaN last), --descending, --top")
PY
expect_failure 2 "has no column 'nope' (its columns: pair_id, tdcone, rank" -- "$TDCONE" export r.h5 --where 'nope<1'
expect_failure 2 "is not COLUMN OP NUMBER" -- "$TDCONE" export r.h5 --where 'tdcone~1'
expect_failure 2 "holds text" -- "$TDCONE" export r.h5 --where 'id==1'
expect_failure 2 "has no column 'nope'" -- "$TDCONE" export r.h5 --sort-by nope
expect_failure 2 "give a column to sort by" -- "$TDCONE" export r.h5 --descending
expect_failure 2 "--selected is for --group selection" -- "$TDCONE" export r.h5 --selected
expect_failure 2 "give it with --text, --lines-only or --jaded" -- "$TDCONE" export r.h5 --input c.tsv
echo "ok: bad --where, --sort-by and combinations are refused"

# ---- inputs checked: moved, changed
mkdir moved && mv c.tsv moved/
expect_failure 2 "r.h5 was computed from $WORK/c.tsv, which is missing (moved? give its new path with --input)" -- \
  "$TDCONE" export r.h5 --text
"$TDCONE" export r.h5 --to jsonl --text --input moved/c.tsv --output moved.jsonl || fail "--input after a move"
cmp moved.jsonl r.jsonl || fail "export from the moved input differs"
cp moved/c.tsv c.tsv
printf 'X' | dd of=c.tsv bs=1 seek=1000 conv=notrunc 2>/dev/null  # same size, one byte changed
expect_failure 2 "c.tsv is not the input r.h5 was computed from: its size is the same, but its content differs" -- \
  "$TDCONE" export r.h5 --text
[ ! -s out.txt ] || fail "rows written from a changed input"
expect_failure 2 "its content differs" -- "$TDCONE" export r.h5 --lines-only
expect_failure 2 "its content differs" -- "$TDCONE" export r.h5 --to jsonl --text --output changed.jsonl
[ ! -e changed.jsonl ] && ! ls changed.jsonl.partial* >/dev/null 2>&1 || fail "an output file left from a changed input"
echo "more" >> c.tsv
expect_failure 2 "c.tsv is not the input r.h5 was computed from: it has grown since the run, and its first .* bytes (the part the run read) differ (fingerprint" -- "$TDCONE" export r.h5 --text
head -c -10 moved/c.tsv > c.tsv
expect_failure 2 "c.tsv is not the input r.h5 was computed from: its size differs" -- "$TDCONE" export r.h5 --text
cp moved/c.tsv c.tsv
printf 'appended\tsince\n' >> c.tsv  # a corpus that grows: the run read its recorded prefix, and so does export
"$TDCONE" export r.h5 --to jsonl --text --output grown.jsonl || fail "export of an input appended to since the run"
cmp grown.jsonl r.jsonl || fail "the export of an input appended to since the run differs"
echo "ok: an input appended to since the run exports the prefix the run read"
expect_failure 2 "--input gives 2 file(s), but r.h5 was computed from 1" -- \
  "$TDCONE" export r.h5 --text --input moved/c.tsv tail.tsv
[ ! -e out.txt ] || [ ! -s out.txt ] || fail "rows written for a refused input"
cp moved/c.tsv c.tsv
echo "ok: a moved input is refused until --input names it; a changed one is refused"

# A result of an older tdcone records its inputs as root attributes: with
# sizes and fingerprints it is checked, without them it joins with a note.
cp r.h5 old.h5
cp r.h5 older.h5
"$PY" -c "
import h5py
for name, checked in (('old.h5', True), ('older.h5', False)):
    with h5py.File(name, 'a') as f:
        f.attrs['inputs'] = '\n'.join(f['inputs/path'].asstr()[()])
        if checked:
            for column, attribute in (('size', 'input_sizes'), ('lines', 'input_lines'),
                                      ('fingerprint', 'input_fingerprints')):
                f.attrs[attribute] = f['inputs/' + column][()]
        del f['inputs']
"
"$TDCONE" export old.h5 --to jsonl --text --output old.jsonl 2>old.err || fail "export of an old result"
[ ! -s old.err ] || fail "a note for an old result that records its inputs' fingerprints: $(cat old.err)"
cmp old.jsonl r.jsonl || fail "old result's export differs"
"$TDCONE" info old.h5 | grep "c.tsv  (.* bytes, .* lines, fingerprint " >/dev/null || fail "info of an old result"
"$TDCONE" export older.h5 --to jsonl --text --output older.jsonl 2>older.err || fail "export of an older result"
grep -q "records no sizes or content fingerprints" older.err || fail "no note for an older result: $(cat older.err)"
cmp older.jsonl r.jsonl || fail "older result's export differs"
echo "ok: old results (inputs as root attributes) join, checked or with a note"

# ---- a JSONL run: the recorded reader settings find the fields
"$PY" - c.tsv c.jsonl <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as f, open(sys.argv[2], "w") as out:
    for line in f:
        cells = line.rstrip("\n").split("\t")
        if len(cells) < 4 or "\udce9" in line:
            out.write(line if "\udce9" not in line else "{not json\n")
        else:
            out.write(json.dumps({"text": cells[0], "para": cells[1], "s": float(cells[2]) if cells[2] != "n/a" else "n/a"}) + "\n")
PY
run_mpi 3 score --input c.jsonl --format jsonl --src-field text --tgt-field para --output j.h5 >/dev/null 2>&1 || fail "score JSONL"
"$TDCONE" export j.h5 --to jsonl --text --output j.jsonl || fail "export a JSONL run"
"$PY" - <<'PY' || fail "JSONL run's text"
import json
src = [json.loads(l) if l.startswith("{\"") else None for l in open("c.jsonl")]
out = [json.loads(l) for l in open("j.jsonl")]
assert len(src) == len(out)
good = 0
for a, b in zip(src, out):
    if b["flags"] & 1:
        assert b["src"] is None and "raw" in b
    else:
        assert (b["src"], b["tgt"]) == (a["text"], a["para"]), (a, b)
        good += 1
assert good > 3000
print(f"ok: a JSONL run exports its fields ({good} good lines)")
PY

# ---- a selection: --selected in rank order, --lines-only verbatim
head -400 c.tsv > repr.tsv
run_mpi 2 select --representative repr.tsv --available c.tsv --output sel.h5 >/dev/null 2>&1 || fail "select"
"$TDCONE" export sel.h5 --group selection --selected --to jsonl --text --output sel.jsonl || fail "export --selected"
"$TDCONE" export sel.h5 --group selection --selected --lines-only --output seed.txt || fail "export --lines-only"
"$TDCONE" export sel.h5 --group selection --selected --top 10 --lines-only --output seed10.txt || fail "--top --lines-only"
"$PY" - <<'PY' || fail "selection export"
import json
import h5py, numpy as np
s = h5py.File("sel.h5", "r")["selection"]
stop = int(s.attrs["stop_rank"])
ids, ranks, flags = s["pair_id"][()], s["rank"][()], s["flags"][()]
chosen = [i for i in range(len(ids)) if ranks[i] <= stop and flags[i] == 0]
rows = [json.loads(l) for l in open("sel.jsonl")]
assert [r["pair_id"] for r in rows] == ids[chosen].tolist(), "rows up to stop_rank in rank order"
assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows) and len(rows) == stop > 0
raw = open("c.tsv", "rb").read().split(b"\n")[:-1]
for r in rows:
    assert r["text"] == raw[r["pair_id"]].decode().split("\t")[0], r  # --side src: the first column
keep = ids[chosen]  # rank order, as --selected says
assert open("seed.txt", "rb").read() == b"".join(raw[i] + b"\n" for i in keep), "--lines-only: the lines verbatim, in rank order"
top10 = ids[chosen][:10]
assert open("seed10.txt", "rb").read() == b"".join(raw[i] + b"\n" for i in top10), "--top 10 --lines-only"
print(f"ok: --selected = {len(rows)} rows up to stop_rank {stop} in rank order; --lines-only verbatim in rank order")
PY

# ---- tdcone info
run_mpi 2 sweep --input c.tsv --score-col 3 --thresholds 0.3,0.6 --output w.h5 >/dev/null 2>&1 || fail "sweep"
run_mpi 2 score --input c.tsv --shards 3 --output s.h5 >/dev/null 2>&1 || fail "score --shards"
for f in r.h5 w.h5 s.h5 sel.h5; do
  "$TDCONE" info "$f" > "info-$f.txt" || fail "info $f"
  "$TDCONE" info "$f" | cmp - "info-$f.txt" || fail "info $f is not deterministic"
  grep -q "^$f: tdcone result of \`tdcone " "info-$f.txt" || fail "info $f: $(head -3 "info-$f.txt")"
  grep -q "^    $WORK/c.tsv  ([0-9]* bytes, $lines lines, fingerprint [0-9a-f]\{16\})$" "info-$f.txt" || fail "info $f inputs"
  grep -q "^  config$" "info-$f.txt" || fail "info $f: no config"
done
grep -q "^/pairs: $lines rows, 12 columns$" info-r.h5.txt || fail "info pairs: $(cat info-r.h5.txt)"
grep -q "^    id  *string (fixed [0-9]* bytes, UTF-8)$" info-r.h5.txt || fail "info column types"
grep -q "^    tdcone  *f64$" info-r.h5.txt || fail "info f64"
grep -q "^    markers  *u16$" info-r.h5.txt || fail "info u16: $(grep markers info-r.h5.txt)"
grep -q "^    score-col = 3$" info-r.h5.txt || fail "info config"
grep -q "^/sweep: 2 rows, 6 columns$" info-w.h5.txt || fail "info sweep: $(cat info-w.h5.txt)"
grep -q "^/shards: 3 rows" info-s.h5.txt || fail "info shards"
grep -q "^/selection: $lines rows, 9 columns$" info-sel.h5.txt || fail "info selection"
grep -q "^    stop_rank  *[0-9]*$" info-sel.h5.txt || fail "info stop_rank"
grep -q "^    tdcone  *0\.[0-9]*$" info-r.h5.txt || fail "info /corpus attributes"
expect_failure 1 "cannot open c.tsv as HDF5" -- "$TDCONE" info c.tsv
"$PY" -c "import h5py; h5py.File('other.h5', 'w')['x'] = [1]"
expect_failure 1 "other.h5 is an HDF5 file but not a tdcone result" -- "$TDCONE" info other.h5
echo "ok: info on score, sweep, shards and selection results; non-tdcone files refused"

# ---- h5py reads strings as str
"$PY" - <<'PY' || fail "h5py strings"
import h5py
f = h5py.File("r.h5", "r")
for name in ("command", "config", "created", "tdcone_version"):
    assert isinstance(f.attrs[name], str), (name, type(f.attrs[name]))
assert f["inputs/path"].asstr()[0].endswith("/c.tsv"), f["inputs/path"][()]
ids = f["pairs/id"].asstr()[()]
assert isinstance(ids[0], str) and ids[0] == "syn-1-0", ids[:3]
assert h5py.check_string_dtype(f["pairs/id"].dtype).encoding == "utf-8"
assert isinstance(h5py.File("sel.h5", "r")["selection/root_word"].asstr()[0], str)
print("ok: h5py reads attributes as str, string columns with .asstr()")
PY
