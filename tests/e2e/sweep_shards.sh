#!/usr/bin/env bash
# tdcone sweep and tdcone score --shards/--reference on 1-4 ranks write the
# same /corpus, /pairs, /sweep and /shards; the tables have the documented columns.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 30000 --seed 11 --vocabulary 4000 --output "$WORK/corpus.tsv.zst"
"$TDCONE" synth --pairs 500 --seed 12 --vocabulary 4000 --junk-fraction 0 --output "$WORK/reference.tsv"

check_ranks sweep sweep --input "$WORK/corpus.tsv.zst" --score-col 3 --reference "$WORK/reference.tsv" \
  --thresholds 0.4,0.5,0.6,0.7,0.75,0.8 --sample 2000 --seed 3
check_ranks shards score --input "$WORK/corpus.tsv.zst" --score-col 3 --reference "$WORK/reference.tsv" \
  --shards 5 --shard-by hash

"$PY" - "$WORK/sweep-2.h5" "$WORK/shards-2.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    s = f["sweep"]
    assert list(s.keys()) == ["threshold", "n_pairs", "n_sampled", "tdcone", "kl_pq", "kl_pu", "tdcone_rel", "bleu",
                                "unigram_precision"], list(s.keys())
    assert list(s["threshold"][()]) == [0.4, 0.5, 0.6, 0.7, 0.75, 0.8]
    n, sampled = s["n_pairs"][()].astype(np.int64), s["n_sampled"][()].astype(np.int64)
    assert (np.diff(n) <= 0).all() and (sampled == np.minimum(n, 2000)).all(), (n, sampled)
    mask = f["pairs/sweep_mask"][()]
    assert [int(((mask >> np.uint64(t)) & np.uint64(1)).sum()) for t in range(6)] == list(sampled)
    assert "tdcone_rel" in f["corpus"].attrs and (s["tdcone_rel"][()] > 0).all()
with h5py.File(sys.argv[2], "r") as f:
    s = f["shards"]
    assert list(s.keys()) == ["shard", "n_pairs", "tdcone", "kl_pq", "kl_pu", "tdcone_rel", "bleu",
                                "unigram_precision"], list(s.keys())
    assert s["n_pairs"][()].sum() == f.attrs["n_scored"]
    shard = f["pairs/shard"][()]
    scored = (f["pairs/flags"][()] & 1) == 0
    assert list(np.bincount(shard[scored], minlength=5)) == list(s["n_pairs"][()])
print("ok: /sweep and /shards tables are consistent")
PY

# Plots of both tables are real PNG pictures.
"$PY" "$HERE/../../scripts/plot.py" "$WORK/sweep-2.h5" "$WORK/sweep.png" >/dev/null
"$PY" "$HERE/../../scripts/plot.py" "$WORK/shards-2.h5" "$WORK/shards.png" >/dev/null
for png in sweep shards; do
  [ "$(head -c 8 "$WORK/$png.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$png.png is not a PNG"
done

echo "ok: plots"

# --shard-by file: /shards names each shard's files (column file, the recorded paths), alike on 1-4 ranks;
# the printed table names them as given; with fewer shards than files a shard holds several.
zstd -q -dc "$WORK/corpus.tsv.zst" | split -d -l 10000 - "$WORK/part."
check_ranks shards-file score --input "$WORK/part.*" --reference "$WORK/reference.tsv" --shard-by file
run_mpi 2 score --input "$WORK/part.*" --shards 2 --shard-by file --output "$WORK/two.h5" >"$WORK/two.txt" 2>/dev/null \
  || fail "--shards 2 --shard-by file"
grep -q "^  shard  *file  *n_pairs  *tdcone  *bleu$" "$WORK/two.txt" || fail "no file column printed: $(cat "$WORK/two.txt")"
grep -q "^  0  *$WORK/part.00, $WORK/part.02  *[0-9]" "$WORK/two.txt" || fail "shard 0's files: $(cat "$WORK/two.txt")"
cut -f1 "$WORK/part.01" >"$WORK/src.txt" && cut -f2 "$WORK/part.01" >"$WORK/tgt.txt"
run_mpi 2 score --src-file "$WORK/src.txt" --tgt-file "$WORK/tgt.txt" --shard-by file --output "$WORK/sides.h5" \
  >/dev/null 2>&1 || fail "--shard-by file of --src-file/--tgt-file"
"$TDCONE" export "$WORK/two.h5" --group shards --output "$WORK/two-shards.tsv" || fail "export --group shards"
"$PY" - "$WORK" <<'PY'
import sys, os, h5py
work = os.path.normpath(sys.argv[1])
parts = [f"{work}/part.0{k}" for k in range(3)]
with h5py.File(f"{work}/shards-file-3.h5", "r") as f:
    s = f["shards"]
    assert list(s.keys()) == ["shard", "file", "n_pairs", "tdcone", "kl_pq", "kl_pu", "tdcone_rel", "bleu",
                                "unigram_precision"], list(s.keys())
    assert list(s["file"].asstr()[()]) == parts == list(f["inputs/path"].asstr()[()]), list(s["file"].asstr()[()])
with h5py.File(f"{work}/two.h5", "r") as f:
    assert list(f["shards/file"].asstr()[()]) == [f"{parts[0]}, {parts[2]}", parts[1]]
with h5py.File(f"{work}/sides.h5", "r") as f:
    assert list(f["shards/file"].asstr()[()]) == [f"{work}/src.txt"]  # the src file of the pair
with h5py.File(f"{work}/shards-2.h5", "r") as f:
    assert "file" not in f["shards"], "hash shards have no file"
rows = [l.split("\t") for l in open(f"{work}/two-shards.tsv").read().split("\n")[:-1]]
assert rows[0][:3] == ["shard", "file", "n_pairs"] and rows[1][1] == f"{parts[0]}, {parts[2]}", rows[:2]
print("ok: --shard-by file names the files of each shard (/shards file, the table, export)")
PY

# A sweep needs a score column.
expect_failure 2 "needs a score" -- "$TDCONE" sweep --input "$WORK/reference.tsv" --thresholds 0.5 --output "$WORK/noscore.h5"
echo "ok: sweep without scores is refused"
