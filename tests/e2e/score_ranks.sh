#!/usr/bin/env bash
# tdcone score on 1, 2, 3 and 4 ranks writes the same /corpus and /pairs,
# for plain TSV, multi-frame zstd, several files and JSONL.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 40000 --seed 3 --vocabulary 5000 --junk-fraction 0.01 --output "$WORK/a.tsv.zst"
"$TDCONE" synth --pairs 3000 --seed 4 --output "$WORK/b.tsv"
"$PY" - "$WORK/b.tsv" "$WORK/b.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as f, open(sys.argv[2], "w") as out:
    for line in f:
        cols = line.rstrip("\n").split("\t")
        record = {"src": cols[0]}
        if len(cols) > 1: record["tgt"] = cols[1]
        if len(cols) > 3: record["key"] = cols[3]
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
PY

# Static vectors for every other word of b.tsv (the rest falls back to uniform over y\x).
"$PY" - "$WORK/b.tsv" "$WORK/vectors.txt" <<'PY'
import random, re, sys
random.seed(1)
words = sorted({w for line in open(sys.argv[1], encoding="utf-8", errors="replace") for w in re.findall(r"\w+", line.lower())})
with open(sys.argv[2], "w") as out:
    for w in words[::2]:
        out.write(w + " " + " ".join("%.4f" % random.uniform(-1, 1) for _ in range(8)) + "\n")
PY

check_ranks static score --input "$WORK/b.tsv" --align static --embeddings "$WORK/vectors.txt" --shards 3
check_ranks zstd score --input "$WORK/a.tsv.zst" --score-col 3 --id-col 4
check_ranks files score --input "$WORK/b.tsv" "$WORK/a.tsv.zst" --id-col 4 --compression zstd
check_ranks jsonl score --input "$WORK/b.jsonl" --format jsonl --id-field key --tokenizer whitespace --no-lowercase

# Every line is accounted for: one row per line, scored + flagged = lines.
"$PY" - "$WORK/files-3.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    n = int(f.attrs["n_lines"])
    assert n == 43000, n
    assert f.attrs["n_scored"] + f.attrs["n_flagged"] == n
    assert len(f["pairs/pair_id"]) == n and (f["pairs/pair_id"][()] == np.arange(n)).all()
    flagged = (f["pairs/flags"][()] & 1).astype(bool)
    assert flagged.sum() == f.attrs["n_flagged"] and flagged.sum() > 0
    assert np.isnan(f["pairs/tdcone"][()][flagged]).all()
    assert sorted(f["pairs/rank"][()]) == list(range(1, n + 1))
    assert f["corpus"].attrs["n_pairs"] == f.attrs["n_scored"]
print("ok: every line accounted for")
PY
