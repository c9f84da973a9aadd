#!/usr/bin/env bash
# Size curves (--at-sizes, docs/spec.md §5 replicates): /curves holds the
# corpus and every subset at each size, the same bits on 1-4 ranks; a size's
# row equals the interval that --sample SIZE with the same replicates and
# seed gives; auto is the powers of two from 128 up to the corpus (score and
# sweep); a bad size is refused naming the option.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
"$TDCONE" synth --pairs 2000 --labels --output c.tsv 2>/dev/null || fail "synth"
"$TDCONE" synth --pairs 400 --seed 7 --output ref.tsv 2>/dev/null || fail "synth ref"
CURVE=(score --input c.tsv --shards 2 --reference ref.tsv --replicates 4 --seed 6)
check_ranks curve "${CURVE[@]}" --at-sizes 300,100,1500
run_mpi 2 "${CURVE[@]}" --sample 300 --output at300.h5 >/dev/null 2>&1 || fail "score --sample 300"
run_mpi 1 "${CURVE[@]}" --at-sizes auto --output auto.h5 >out.txt 2>&1 || fail "score --at-sizes auto: $(cat out.txt)"
run_mpi 2 sweep --input c.tsv --score-col 3 --thresholds 0.3,0.6 --replicates 2 --at-sizes auto --output sweep.h5 \
  >/dev/null 2>&1 || fail "sweep --at-sizes auto"
"$PY" - sweep.h5 <<'PY' || fail "the sweep's /curves"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    c = f["curves"]
    assert sorted(set(c["size"][()])) == [128, 256, 512, 1024], set(c["size"][()])
    assert set(c["table"][()].astype(str)) == {"corpus", "sweep"}
    assert len(c["size"]) == 4 * (1 + 2), len(c["size"])  # corpus and two thresholds, TD-CONE only
PY
"$PY" - curve-1.h5 at300.h5 auto.h5 <<'PY' || fail "/curves"
import sys, h5py, numpy as np
def table(f, group):
    g = f[group]
    return {k: g[k][()].astype(str) if g[k].dtype.kind in "SO" else g[k][()] for k in g}
with h5py.File(sys.argv[1], "r") as f:
    c = table(f, "curves")
    assert sorted(set(c["size"])) == [100, 300, 1500], set(c["size"])
    # corpus and 2 shards, 3 sizes, 2 metrics
    assert len(c["size"]) == 3 * 3 * 2, len(c["size"])
    assert set(c["metric"]) == {"tdcone", "tdcone_rel"}
    shard_rows = (c["table"] == "shards") & (c["size"] == 1500)
    assert (c["n_sampled"][shard_rows] < 1500).all(), "a shard of about 1000 pairs sampled at 1500 is taken whole"
    assert f["curves"].attrs["replicates"] == 4 and f["curves"].attrs["seed"] == 6
with h5py.File(sys.argv[2], "r") as f:
    i = table(f, "intervals")
for t in ("corpus", "shards"):
    for metric in ("tdcone", "tdcone_rel"):
        at = (c["table"] == t) & (c["size"] == 300) & (c["metric"] == metric)
        iv = (i["table"] == t) & (i["metric"] == metric)
        for column in ("mean", "sd", "lo", "hi"):
            assert c[column][at].tobytes() == i[column][iv].tobytes(), (t, metric, column, c[column][at], i[column][iv])
with h5py.File(sys.argv[3], "r") as f:
    sizes = sorted(set(f["curves"]["size"][()]))
    assert sizes == [128, 256, 512, 1024], sizes
PY
grep -q "the corpus by sample size (--at-sizes; every subset in /curves): tdcone_rel, 4 samples a size" out.txt ||
  fail "the summary has no curve: $(cat out.txt)"
# refused STATUS MESSAGE COMMAND...: the command stops with STATUS, saying MESSAGE.
refused() {
  local status=$1 message=$2 rc=0; shift 2
  "$@" >/dev/null 2>err.txt || rc=$?
  [ "$rc" = "$status" ] && grep -qF -- "$message" err.txt || fail "$* (exit $rc): $(cat err.txt)"
}
refused 2 "--at-sizes 100,x: 'x' is not a size" "$TDCONE" score --input c.tsv --at-sizes 100,x --output bad.h5
refused 2 "--replicates 3 needs --sample N, --sample auto or --at-sizes" "$TDCONE" score --input c.tsv --replicates 3 \
  --output bad.h5
echo "ok: /curves on 1-4 ranks, equal to --sample at each size; auto sizes; bad sizes refused"
