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
    assert list(s.keys()) == ["threshold", "n_pairs", "n_sampled", "tdcone", "kl_pq", "kl_pu", "tdcone_rel"], list(s.keys())
    assert list(s["threshold"][()]) == [0.4, 0.5, 0.6, 0.7, 0.75, 0.8]
    n, sampled = s["n_pairs"][()].astype(np.int64), s["n_sampled"][()].astype(np.int64)
    assert (np.diff(n) <= 0).all() and (sampled == np.minimum(n, 2000)).all(), (n, sampled)
    mask = f["pairs/sweep_mask"][()]
    assert [int(((mask >> np.uint64(t)) & np.uint64(1)).sum()) for t in range(6)] == list(sampled)
    assert "tdcone_rel" in f["corpus"].attrs and (s["tdcone_rel"][()] > 0).all()
with h5py.File(sys.argv[2], "r") as f:
    s = f["shards"]
    assert list(s.keys()) == ["shard", "n_pairs", "tdcone", "kl_pq", "kl_pu", "tdcone_rel"], list(s.keys())
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

# A sweep needs a score column.
expect_failure 2 "needs a score" -- "$TDCONE" sweep --input "$WORK/reference.tsv" --thresholds 0.5 --output "$WORK/noscore.h5"
echo "ok: sweep without scores is refused"
